// Hostile state folders and state configuration that a cloned or shared workspace can ship: a `.hub` symlinked out
// of the workspace, a FIFO or /dev/zero where a document or a lock goes, a hub.config.yaml naming its own state
// server to collect the user's HUB_STATE_TOKEN, and a folder whose `.git` points at a git dir with a command in
// core.fsmonitor. A correct hub refuses each at once and runs nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const set = (manifestPath) => [
  '-c',
  manifestPath,
  'context',
  'objective',
  'set',
  '--id',
  'x',
  '--title',
  'X',
  '--json',
];

/** The demo with `make(root)` applied; runs `objective set` (and `list`) and judges the worst of them. */
async function stateCase(kit, make) {
  const { root, manifestPath } = kit.demo();
  make(root);
  const a = kit.judgeCli(await kit.hub(set(manifestPath), { timeoutMs: 20_000 }));
  const b = kit.judgeCli(
    await kit.hub(['-c', manifestPath, 'context', 'objective', 'list', '--json'], { timeoutMs: 20_000 }),
  );
  return a.verdict === 'refused' ? b : a;
}

export const cases = [
  {
    name: '.hub is a symlink out of the workspace: objective set writes nothing there',
    expect: 'refused',
    run: async (kit) => {
      const outside = kit.tempDir('hub-hostile-state-out-');
      const out = await stateCase(kit, (root) => symlinkSync(outside, join(root, '.hub')));
      return readdirSync(outside).length > 0
        ? { verdict: 'accepted', detail: 'wrote outside the workspace' }
        : out;
    },
  },
  {
    name: '.hub/objectives.json is a FIFO',
    expect: 'refused',
    run: (kit) =>
      stateCase(kit, (root) => {
        mkdirSync(join(root, '.hub'));
        execFileSync('mkfifo', [join(root, '.hub', 'objectives.json')]);
      }),
  },
  {
    name: '.hub/objectives.json is a symlink to /dev/zero',
    expect: 'refused',
    run: (kit) =>
      stateCase(kit, (root) => {
        mkdirSync(join(root, '.hub'));
        symlinkSync('/dev/zero', join(root, '.hub', 'objectives.json'));
      }),
  },
  {
    name: '.hub/locks/objectives.lock is a FIFO',
    expect: 'refused',
    run: async (kit) => {
      const { root, manifestPath } = kit.demo();
      mkdirSync(join(root, '.hub', 'locks'), { recursive: true });
      execFileSync('mkfifo', [join(root, '.hub', 'locks', 'objectives.lock')]);
      return kit.judgeCli(await kit.hub(set(manifestPath), { timeoutMs: 20_000 }));
    },
  },
  {
    name: "the workspace's hub.config.yaml names its own state server to collect HUB_STATE_TOKEN",
    expect: 'refused',
    run: async (kit) => {
      const seen = [];
      const server = createServer((req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"objectives":[]}');
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      try {
        const { root, manifestPath } = kit.demo();
        const url = `http://127.0.0.1:${server.address().port}`;
        writeFileSync(join(root, 'hub.config.yaml'), `state:\n  backend: http\n  url: ${url}\n`);
        const r = await kit.hub(['-c', manifestPath, 'context', 'objective', 'list', '--json'], {
          env: { HUB_STATE_TOKEN: 'users-own-token-1234' },
        });
        if (seen.some((a) => a?.includes('users-own-token')))
          return { verdict: 'accepted', detail: 'token sent' };
        return kit.judgeCli(r);
      } finally {
        server.close();
      }
    },
  },
  {
    name: 'a repository folder whose .git points at a git dir the workspace ships, with a core.fsmonitor command',
    expect: 'accepted',
    run: async (kit) => {
      const base = kit.tempDir('hub-hostile-state-git-');
      const root = join(base, 'ws');
      const store = join(root, 'p', 'store.git');
      const marker = join(base, 'ran');
      mkdirSync(join(root, 'p', 'evil'), { recursive: true });
      execFileSync('git', ['init', '-q', '--bare', store]);
      const cfg = (k, v) => execFileSync('git', ['config', '--file', join(store, 'config'), k, v]);
      cfg('core.bare', 'false');
      cfg('core.worktree', '../evil');
      cfg('core.fsmonitor', `touch ${marker}; false`);
      writeFileSync(join(root, 'p', 'evil', '.git'), 'gitdir: ../store.git\n');
      writeFileSync(
        join(root, '.hub.yml'),
        'workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: evil\n          path: ./p/evil\n',
      );
      const r = await kit.hub(['context', 'pack', '--tier', '1', '--json'], { cwd: root });
      if (existsSync(marker)) return { verdict: 'crash', detail: 'the workspace ran a command through git' };
      return kit.judgeCli(r);
    },
  },
];
