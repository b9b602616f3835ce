// The README, tried as a newcomer would: every ```sh block runs, in order, on the demo workspace, with `hub` on
// the PATH. Only what cannot run inside a test is changed, and each change is listed here with its reason.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call } from './http-server.js';
import { connectHub } from './mcp-client.js';
import { HUB_BIN, runHub } from './run-hub.js';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The demo's cloned repositories. */
const DEMO_CHECKOUTS = [
  'platform/identity',
  'platform/gateway',
  'platform/cloud-infra',
  'storefront/web',
  'storefront/catalog',
];

/** Lines left out, each with why. */
const SKIPPED: Array<{ line: RegExp; reason: string }> = [
  {
    line: /^npm install && npm start/,
    reason:
      'builds this checkout and serves until Ctrl-C; the suite runs on that build, on a demo made by createDemo',
  },
  { line: /^npm test\b/, reason: 'is this test suite' },
  {
    line: /^npm config set prefix\b/,
    reason:
      "changes the npm configuration of the user who runs the tests; the test's PATH holds its own `hub`",
  },
  {
    line: /^npm link\b/,
    reason: "changes npm's global folder on the machine; the test puts bin/hub on the PATH as `hub` instead",
  },
  {
    line: /^hub web serve --host 0\.0\.0\.0/,
    reason: 'binds every network interface of the machine that runs the tests',
  },
];

/** Text replaced, each with why. `{base}` is a real hub server of this test. */
const REPLACED: Array<{ from: string; to: string; reason: string }> = [
  {
    from: 'hub web serve --port 8787',
    to: 'hub web serve --port 0 --status-once',
    reason: 'serves until Ctrl-C: --status-once binds, prints web_state=ready and exits; 8787 may be taken',
  },
  {
    from: 'https://hub.example.com',
    to: '{base}',
    reason: 'a real hub server started by the test stands in for the remote one',
  },
];

function fenced(lang: string): string[] {
  return [...README.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

let dir: string;
let root: string;
let env: Record<string, string>;
/** A real `hub web serve` in its own process: the tour runs synchronously, which would starve one in this one. */
let server: { base: string; child: ChildProcess };

function startServer(cwd: string, serverEnv: Record<string, string>): Promise<typeof server> {
  const child = spawn(process.execPath, [HUB_BIN, 'web', 'serve', '--port', '0', '--root', cwd], {
    env: { ...serverEnv, HUB_DAEMON: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /url=(http:\/\/\S+?)\/?\s/.exec(out)?.[1];
      if (url) resolve({ base: url, child });
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  dir = createTempDir('hub-readme-');
  root = createDemo(join(dir, '.demo')).root;
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(HUB_BIN, join(bin, 'hub'));
  env = {
    ...(process.env as Record<string, string>),
    PATH: `${bin}:${process.env.PATH}`,
    HUB_CACHE_DIR: join(dir, 'cache'),
    // The daemon block starts a daemon: give it a socket folder of its own, stopped in afterAll.
    XDG_RUNTIME_DIR: join(dir, 'run'),
    HUB_AGENT_MODE: '',
    HUB_OFFLINE: '1',
    NO_COLOR: '1',
  };
  mkdirSync(env.XDG_RUNTIME_DIR!);
  // Started now rather than at the README's daemon block (which then finds it running), so each of the tour's
  // ~100 commands costs a node start instead of loading hub: the tour takes half the time.
  const daemon = spawnSync(process.execPath, [HUB_BIN, 'daemon', 'start'], {
    env,
    cwd: root,
    encoding: 'utf8',
  });
  expect(daemon.status, daemon.stderr).toBe(0);
  server = await startServer(root, env);
});

afterAll(async () => {
  spawnSync('hub', ['daemon', 'stop'], { env, cwd: root, encoding: 'utf8', timeout: 30_000 });
  server?.child.kill('SIGTERM');
  removeTempDir(dir);
});

describe('README', () => {
  it('every sh block runs, in order, on the demo, and exits 0', () => {
    const used = new Set<string>();
    const script = [
      'set -euo pipefail',
      'trap \'echo "README command failed (exit $?): $BASH_COMMAND" >&2\' ERR',
    ];
    for (const [i, block] of fenced('sh').entries()) {
      script.push(`echo "### README sh block ${i + 1}" >&2`);
      for (const raw of block.split('\n')) {
        const skip = SKIPPED.find((s) => s.line.test(raw.trim()));
        if (skip) {
          used.add(skip.reason);
          script.push(`: skipped  # ${skip.reason}`);
          continue;
        }
        let line = raw;
        for (const r of REPLACED) {
          if (!line.includes(r.from)) continue;
          used.add(r.reason);
          line = line.split(r.from).join(r.to.replace('{base}', server.base));
        }
        script.push(line);
      }
    }
    // Every listed exception is still needed: a stale one would hide a README change.
    for (const s of [...SKIPPED, ...REPLACED]) expect(used, s.reason).toContain(s.reason);

    const r = spawnSync('bash', ['-c', script.join('\n')], {
      cwd: dir,
      env,
      encoding: 'utf8',
      input: '',
      timeout: 300_000,
    });
    expect(r.status, `${r.stdout.slice(-1000)}\n${r.stderr.slice(-3000)}`).toBe(0);
    expect(r.stdout).toMatch(/web_state=ready/);
    // The whole tour is one script of ~100 commands (~25 s alone): the default 60 s per test is too little on a
    // loaded machine, and the script's own 300 s limit is the one that matters.
  }, 300_000);

  it('leaves the demo valid, with summary and validate agreeing, one objective and the claimed handoff', async () => {
    const hub = (args: string[]) => runHub(args, { cwd: root });
    expect(hub(['config', 'validate']).code).toBe(0);
    const summary = hub(['workspace', 'summary', '--json']).json();
    expect(summary.manifest_valid).toBe(true);
    const objectives = hub(['context', 'objective', 'list', '--json']).json().objectives;
    expect(objectives.map((o: { id: string }) => o.id)).toEqual(['auth-rework']);
    const handoffs = hub(['context', 'handoff', 'list', '--json']).json().handoffs;
    expect(handoffs).toEqual([
      expect.objectContaining({ id: 'ho-auth-tests', status: 'claimed', claimed_by: 'agent-7' }),
    ]);
    expect(hub(['component', 'show', 'platform/gateway/rate-limiter', '--json']).code).toBe(0);
    // The tour's graph lines show an inferred edge: storefront's package.json names identity's SDK.
    const graph = hub(['graph', '--json']).json();
    expect(graph.edges).toContainEqual(
      expect.objectContaining({
        from_id: 'repo:storefront/web',
        to_id: 'repo:platform/identity',
        source: 'inferred',
        evidence: [
          expect.objectContaining({ file: 'apps/storefront/package.json', name: '@example/identity-sdk' }),
        ],
      }),
    );
    const remote = await call(server.base, 'GET', '/v3/ops/objectives');
    expect(remote.status).toBe(200);
  });

  it('leaves every checkout as the demo made it and no working set beside the two projects', () => {
    const hub = (args: string[]) => runHub(args, { cwd: root });
    for (const repo of DEMO_CHECKOUTS) {
      expect(git(join(root, repo), ['status', '--porcelain', '--untracked-files=all']), repo).toBe('');
      expect(git(join(root, repo), ['rev-parse', '--abbrev-ref', 'HEAD']), repo).toBe('main');
    }
    const projects = hub(['config', 'show', '--json']).json().manifest.workspace.projects;
    expect(projects.map((p: { name: string }) => p.name)).toEqual(['platform', 'storefront']);
    // What it does leave, the README lists: the two worktrees of agent-a among them.
    const worktrees = hub(['worktree', 'list', '--json']).json().worktrees;
    expect(worktrees.map((w: { branch: string }) => w.branch).sort()).toEqual([
      'agent/auth-refactor',
      'agent/refresh.token-refresh-api',
    ]);
    const leaves = README.slice(README.indexOf('What the tour leaves'));
    for (const item of [
      '.worktrees/',
      'agent/auth-refactor',
      'pre-commit',
      'hub.config.yaml',
      'aosp.hub.yml',
      'graph.mmd',
    ])
      expect(leaves, item).toContain(item);
  });

  it('the MCP client configuration starts a working server with `hub`', async () => {
    const [block] = fenced('json');
    const entry = JSON.parse(block!).mcpServers.hub;
    expect(entry.command).toBe('hub');
    const args: string[] = entry.args;
    expect(args.slice(0, 3)).toEqual(['mcp', 'serve', '--root']);
    const client = await connectHub(root, args.slice(4));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('hub_component_resolve');
    } finally {
      await client.close();
    }
  });

  it('the manifest example is valid', () => {
    const [block] = fenced('yaml');
    const ws = join(dir, 'manifest-example');
    mkdirSync(ws);
    writeFileSync(join(ws, '.hub.yml'), block!);
    const r = runHub(['config', 'validate'], { cwd: ws });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('the README says how to start afresh after the tour, and that gives the demo as it was', () => {
    const reset = /`(node examples\/create-demo\.mjs \.demo --force)`/.exec(README)?.[1];
    expect(reset).toBeDefined();
    const [, script, ...args] = reset!.split(' ');
    // Run as written, from the folder holding .demo (the checkout, in the README).
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', script!), ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(
      git(join(root, 'platform', 'identity'), ['worktree', 'list'])
        .trim()
        .split('\n'),
    ).toHaveLength(1);
    expect(runHub(['context', 'objective', 'list', '--json'], { cwd: root }).json().objectives).toEqual([]);
  });

  it('promises only what this version has: the browser UI is built and served, hub is not on npm', async () => {
    for (const args of [
      ['web', '--help'],
      ['web', 'serve', '--help'],
    ]) {
      const help = runHub(args).stdout.replace(/\s+/g, ' ');
      expect(help).toMatch(/browser UI/);
      expect(help).not.toMatch(/placeholder/);
    }
    // `npm run build` (run before the suite) builds dist/web: the server answers the UI, not the placeholder.
    const page = await call(server.base, 'GET', '/', { headers: { accept: 'text/html' } });
    expect(page.text).toMatch(/<div id="root">/);
    expect(page.text).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
    expect(page.text).not.toMatch(/browser UI is not built/);
    expect(README).not.toMatch(/placeholder/);
    expect(README).toMatch(/docs\/ui\.md/);
    const docs = ['docs/mcp.md', 'docs/http.md'].map((f) =>
      readFileSync(join(import.meta.dirname, '..', f), 'utf8'),
    );
    for (const text of [README, ...docs]) expect(text).not.toMatch(/npx -y hub-workspace|"npx"/);
  });
});
