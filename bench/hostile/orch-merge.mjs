// Hostile merge-queue requests (issue 13, merge queue): branch names git would read as options or that climb out
// of refs/heads, a rollup base that is an option, validators and regenerate commands from a cloned workspace's
// hub.config.yaml, a validator string with shell syntax, a checked-out target, and a forged transition.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const git = (cwd, args) =>
  execFileSync('git', ['-c', 'user.name=h', '-c', 'user.email=h@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

const R = 'platform/identity';

/** The demo workspace with an `integration` branch and a branch `agent/f` of one commit in platform/identity. */
function ws(kit) {
  const d = kit.demo();
  const repo = join(d.root, R);
  git(repo, ['branch', 'integration']);
  git(repo, ['checkout', '-q', '-b', 'agent/f']);
  git(repo, ['commit', '-q', '--allow-empty', '-m', 'f']);
  git(repo, ['checkout', '-q', 'main']);
  return { ...d, repo, marker: join(kit.tempDir('hub-hostile-merge-'), 'pwned') };
}

const flags = (o) => Object.entries(o).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, v]);
const rpcCall = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;
const touch = (file) => ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(file)}, 'x')`];

/** Accepted (the attack worked) when a file the attack aimed to make exists. */
const made = (paths, judged) => {
  const hit = paths.find((p) => existsSync(p));
  return hit ? { verdict: 'accepted', detail: `${hit} was created` } : judged;
};

async function overHttp(kit, root, path, body) {
  const s = await kit.server(root);
  try {
    return await kit.request(s.base, 'POST', path, { body });
  } finally {
    await s.close();
  }
}

async function overMcp(kit, root, tool, args) {
  const m = kit.mcp(root);
  try {
    await m.init();
    m.send(rpcCall(1, tool, args));
    return await m.next(20_000);
  } finally {
    m.close();
  }
}

/** Enqueues agent/f into integration on the CLI and integrates it; the verdict of the integrate. */
async function integrate(kit, w, extra = []) {
  const q = await kit.hub([
    '-c',
    w.manifestPath,
    ...extra,
    'merge',
    'enqueue',
    ...flags({ repository: R, branch: 'agent/f', into: 'integration' }),
  ]);
  if (q.code !== 0) return { q, r: q };
  const r = await kit.hub(['-c', w.manifestPath, ...extra, 'merge', 'integrate', '--repository', R]);
  return { q, r };
}

export const cases = [
  {
    name: "a source branch named '-x' on the CLI (read as an option by git)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await kit.hub([
        '-c',
        w.manifestPath,
        'merge',
        'enqueue',
        ...flags({ repository: R, branch: '-x', into: 'integration' }),
      ]);
      return kit.judgeCli(r);
    },
  },
  {
    name: "a source branch '--upload-pack=<touch a file>' over HTTP",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const branch = `--upload-pack=touch ${w.marker}`;
      const r = await overHttp(kit, w.root, '/v3/ops/merges', { repository: R, branch, into: 'integration' });
      return made([w.marker], kit.judgeHttp(r));
    },
  },
  {
    name: "a target '../x' over MCP (a ref path out of refs/heads)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const msg = await overMcp(kit, w.root, 'hub_merge_enqueue', {
        repository: R,
        branch: 'agent/f',
        into: '../x',
      });
      return made([join(w.repo, '.git', 'x'), join(w.repo, '.git', 'refs', 'x')], kit.judgeRpc(msg));
    },
  },
  {
    name: "a rollup into '../../HEAD' over HTTP (would move the checkout's HEAD file)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const head = git(w.repo, ['rev-parse', 'HEAD']);
      const r = await overHttp(kit, w.root, '/v3/ops/merges/rollup', {
        repository: R,
        into: '../../HEAD',
        base: 'main',
        branches: 'agent/f',
      });
      const judged = kit.judgeHttp(r);
      return git(w.repo, ['rev-parse', 'HEAD']) === head
        ? judged
        : { verdict: 'accepted', detail: 'HEAD moved' };
    },
  },
  {
    name: "a rollup base '--upload-pack=<touch a file>' on the CLI",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await kit.hub([
        '-c',
        w.manifestPath,
        'merge',
        'rollup',
        ...flags({ repository: R, into: 'next', base: `--upload-pack=touch ${w.marker}`, branch: 'agent/f' }),
      ]);
      return made([w.marker], kit.judgeCli(r));
    },
  },
  {
    name: 'merge.validators in a cloned workspace hub.config.yaml (a command hub would run)',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      writeFileSync(
        join(w.root, 'hub.config.yaml'),
        `merge:\n  validators:\n    - ${JSON.stringify(touch(w.marker))}\n`,
      );
      const { r } = await integrate(kit, w);
      return made([w.marker], kit.judgeCli(r));
    },
  },
  {
    name: 'merge.regenerate in a cloned workspace hub.config.yaml',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      writeFileSync(
        join(w.root, 'hub.config.yaml'),
        `merge:\n  regenerate:\n    - pattern: '**'\n      command: ${JSON.stringify(touch(w.marker))}\n`,
      );
      const { r } = await integrate(kit, w);
      return made([w.marker], kit.judgeCli(r));
    },
  },
  {
    name: "a validator string with shell syntax ('true && touch ...') in the user's own config: never given to a shell",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const cfg = join(kit.tempDir('hub-hostile-cfg-'), 'hub.config.yaml');
      writeFileSync(cfg, `merge:\n  validators:\n    - 'true && touch ${w.marker}'\n`);
      const { r } = await integrate(kit, w, ['--appconfig', cfg]);
      return made([w.marker], kit.judgeCli(r));
    },
  },
  {
    name: 'integrate into the branch the main checkout has checked out',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const head = git(w.repo, ['rev-parse', 'main']);
      await kit.hub([
        '-c',
        w.manifestPath,
        'merge',
        'enqueue',
        ...flags({ repository: R, branch: 'agent/f', into: 'main' }),
      ]);
      const r = await kit.hub(['-c', w.manifestPath, 'merge', 'integrate', '--repository', R]);
      const judged = kit.judgeCli(r);
      return git(w.repo, ['rev-parse', 'main']) === head
        ? judged
        : { verdict: 'accepted', detail: 'main moved' };
    },
  },
  {
    name: "a forged transition over HTTP for repository '../../x'",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await overHttp(kit, w.root, '/v3/ops/merges/transition', {
        repository: '../../x',
        action: 'requeue',
        merge_id: 'm',
      });
      return made(
        [join(w.root, '.hub', 'merges', '..', '..', 'x.json'), join(w.root, 'x.json')],
        kit.judgeHttp(r),
      );
    },
  },
  {
    name: 'a forged transition over HTTP that claims to finish a request never claimed',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const q = await kit.hub([
        '-c',
        w.manifestPath,
        'merge',
        'enqueue',
        ...flags({ repository: R, branch: 'agent/f', into: 'integration' }),
        '--json',
      ]);
      const id = JSON.parse(q.stdout).merge.merge_id;
      const r = await overHttp(kit, w.root, '/v3/ops/merges/transition', {
        repository: R,
        action: 'finish',
        merge_id: id,
        status: 'succeeded',
      });
      return kit.judgeHttp(r);
    },
  },
];
