// Hostile inputs of the terrain and repository-CI operations: a cloned workspace whose checkouts plant CI files
// that are links to secrets outside, FIFOs and alias bombs, a git config that names a command, an origin/HEAD link
// out of the repository, a repository folder linked outside the workspace, and over-large or credential-carrying
// inputs on every surface. A correct hub answers without reading, running or echoing what it must not.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET = 'HOSTILE-TERRAIN-SECRET';

/** A demo workspace plus a folder outside it holding a secret. */
function setup(kit) {
  const { root } = kit.demo();
  const outside = kit.tempDir('hub-hostile-terrain-out-');
  writeFileSync(join(outside, 'secret.yml'), `${SECRET}:\n  script: [cat ~/.ssh/id_rsa]\n`);
  writeFileSync(join(outside, 'HEAD'), `ref: refs/remotes/origin/${SECRET}\n`);
  return { root, outside, repo: (p, r) => join(root, p, r) };
}

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** The attack worked when the secret came back; else the hostile part was refused (the rest may be answered). */
const leakOr = (text, detail) =>
  String(text ?? '').includes(SECRET)
    ? { verdict: 'accepted', detail: 'the outside secret was returned' }
    : { verdict: 'refused', detail };

export const cases = [
  {
    name: 'terrain include_pipelines over HTTP: .gitlab-ci.yml linked to a file outside the repository',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const ci = join(w.repo('platform', 'cloud-infra'), '.gitlab-ci.yml');
      rmSync(ci);
      symlinkSync(join(w.outside, 'secret.yml'), ci);
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'GET', '/v3/ops/terrain?project=platform&include_pipelines=true');
        if (r.status !== 200) return kit.judgeHttp(r);
        const node = r.json.nodes.find((n) => n.repo_id === 'platform/cloud-infra');
        return leakOr(r.text, node.pipeline.providers[0]?.files[0]?.error ?? 'no file read');
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'ci detect over MCP: a FIFO named .gitlab-ci.yml (the server must not hang)',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const ci = join(w.repo('platform', 'cloud-infra'), '.gitlab-ci.yml');
      rmSync(ci);
      execFileSync('mkfifo', [ci]);
      const m = kit.mcp(w.root);
      try {
        await m.init();
        m.send(rpc(1, 'hub_repo_ci_detect', { project: 'platform', repo: 'cloud-infra' }));
        const msg = await m.next(15_000);
        if (!msg?.result || msg.result.isError) return kit.judgeRpc(msg);
        // A FIFO is no regular file: not listed as a CI file at all (or listed with an error), never opened.
        const file = msg.result.structuredContent.repos[0].providers[0]?.files[0];
        if (!file) return { verdict: 'refused', detail: 'not taken for a CI file' };
        return file.error
          ? { verdict: 'refused', detail: file.error }
          : { verdict: 'accepted', detail: 'read' };
      } finally {
        m.close();
      }
    },
  },
  {
    name: 'ci detect on the CLI: a billion-laughs .gitlab-ci.yml',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let i = 1; i < 10; i++) {
        const p = String.fromCharCode(96 + i);
        const c = String.fromCharCode(97 + i);
        lines.push(`${c}: &${c} [${Array(10).fill(`*${p}`).join(',')}]`);
      }
      writeFileSync(join(w.repo('platform', 'cloud-infra'), '.gitlab-ci.yml'), `${lines.join('\n')}\n`);
      const r = await kit.hub(
        ['project', 'repo', 'ci', 'detect', '-p', 'platform', '-n', 'cloud-infra', '--json'],
        {
          cwd: w.root,
        },
      );
      if (r.code !== 0) return kit.judgeCli(r);
      const file = JSON.parse(r.stdout).repos[0].providers[0].files[0];
      return file.error
        ? { verdict: 'refused', detail: file.error }
        : { verdict: 'accepted', detail: 'expanded' };
    },
  },
  {
    name: 'enriched terrain: a checkout whose .git/config sets core.fsmonitor to a command',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const marker = join(w.outside, 'fsmonitor-ran');
      const repo = w.repo('storefront', 'web');
      execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', `touch ${marker}; false`]);
      const r = await kit.hub(['workspace', 'terrain', '--json'], { cwd: w.root });
      if (existsSync(marker)) return { verdict: 'accepted', detail: 'the fsmonitor command ran' };
      return r.code === 0
        ? { verdict: 'refused', detail: 'status ran with core.fsmonitor off' }
        : kit.judgeCli(r);
    },
  },
  {
    name: 'enriched terrain: .git/refs/remotes/origin/HEAD linked to a file outside',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const repo = w.repo('platform', 'gateway');
      const ref = join(repo, '.git', 'refs', 'remotes', 'origin');
      mkdirSync(ref, { recursive: true });
      symlinkSync(join(w.outside, 'HEAD'), join(ref, 'HEAD'));
      const r = await kit.hub(['workspace', 'terrain', '--project', 'platform', '--json'], { cwd: w.root });
      if (r.code !== 0) return kit.judgeCli(r);
      return leakOr(r.stdout, 'origin/HEAD not followed out of the repository');
    },
  },
  {
    name: 'terrain: a repository folder linked outside the workspace (cloned manifest)',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      mkdirSync(join(w.outside, 'repo'));
      writeFileSync(join(w.outside, 'repo', '.gitlab-ci.yml'), `${SECRET}:\n  script: [x]\n`);
      execFileSync('git', ['init', '-q', join(w.outside, 'repo')]);
      const catalog = w.repo('storefront', 'catalog');
      rmSync(catalog, { recursive: true, force: true });
      symlinkSync(join(w.outside, 'repo'), catalog);
      const r = await kit.hub(['workspace', 'terrain', '--include-pipelines', '--json'], { cwd: w.root });
      if (r.code !== 0) return kit.judgeCli(r);
      const node = JSON.parse(r.stdout).nodes.find((n) => n.repo_id === 'storefront/catalog');
      if (node.local_status !== 'outside_workspace')
        return { verdict: 'accepted', detail: node.local_status };
      return leakOr(r.stdout, 'listed as outside_workspace, never read');
    },
  },
  {
    name: 'terrain over HTTP: limit=100000 and parallel=1000',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const s = await kit.server(w.root);
      try {
        const a = kit.judgeHttp(await kit.request(s.base, 'GET', '/v3/ops/terrain?limit=100000'));
        if (a.verdict !== 'refused') return a;
        return kit.judgeHttp(await kit.request(s.base, 'GET', '/v3/ops/terrain?parallel=1000'));
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'ci set over HTTP: a url carrying credentials (refused, never echoed)',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const s = await kit.server(w.root);
      try {
        const r = await kit.request(s.base, 'POST', '/v3/ops/repos/ci', {
          body: {
            project: 'platform',
            repo: 'identity',
            provider: 'github_actions',
            url: `https://u:${SECRET}@ci.example.com/`,
          },
        });
        return String(r.text).includes(SECRET) ? { verdict: 'accepted', detail: 'echoed' } : kit.judgeHttp(r);
      } finally {
        await s.close();
      }
    },
  },
  {
    name: 'ci set on the CLI: a pipeline path that climbs out of the repository',
    expect: 'refused',
    run: async (kit) => {
      const w = setup(kit);
      const args = ['project', 'repo', 'ci', 'set', '-p', 'platform', '-n', 'identity'];
      return kit.judgeCli(
        await kit.hub([...args, '--provider', 'gitlab_ci', '--pipeline', '../../../etc/passwd', '--json'], {
          cwd: w.root,
        }),
      );
    },
  },
];
