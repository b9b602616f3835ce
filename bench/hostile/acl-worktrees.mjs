// Hostile worktree requests (issue 12, worktrees): ids that would climb out of the layout, a worktrees_path or a
// post_create entry leading outside the workspace, a branch named like an option, destroy of a dirty worktree
// without --force, adopting the main checkout, and a forged record that points gc at a folder outside.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const git = (cwd, args) =>
  execFileSync('git', ['-c', 'user.name=h', '-c', 'user.email=h@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

/** The demo workspace with branches agent/T1 and agent/T2 in platform/identity. */
function ws(kit) {
  const d = kit.demo();
  const repo = join(d.root, 'platform/identity');
  git(repo, ['branch', 'agent/T1']);
  git(repo, ['branch', 'agent/T2']);
  return { ...d, repo };
}

const create = (over = {}) => ({
  repository: 'platform/identity',
  agent_id: 'a1',
  task_id: 'T1',
  branch: 'agent/T1',
  ...over,
});
const flags = (o) => Object.entries(o).flatMap(([k, v]) => [`--${k.replace(/_/g, '-')}`, v]);
const rpcCall = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** Accepted (the attack worked) when a folder the attack aimed at was made. */
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

export const cases = [
  {
    name: "agent id '../x' over HTTP (a worktree beside the worktrees folder)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await overHttp(kit, w.root, '/v3/ops/worktrees', create({ agent_id: '../x' }));
      return made([join(w.root, 'x'), join(w.root, '.worktrees')], kit.judgeHttp(r));
    },
  },
  {
    name: "task id 'a/b' on the CLI (a nested folder)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await kit.hub([
        '-c',
        w.manifestPath,
        'worktree',
        'create',
        ...flags(create({ task_id: 'a/b' })),
      ]);
      return made([join(w.root, '.worktrees/a1/platform~identity/a')], kit.judgeCli(r));
    },
  },
  {
    name: 'task id of 5 KB over MCP',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const msg = await overMcp(kit, w.root, 'hub_worktree_create', create({ task_id: 'T'.repeat(5000) }));
      return made([join(w.root, '.worktrees')], kit.judgeRpc(msg));
    },
  },
  {
    name: 'task and agent ids with a newline, a tab, a leading space or U+2028 (CLI, HTTP, MCP; issue 25)',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const verdicts = [];
      for (const id of ['T1\n', 'T1\t', ' T1', 'T1\u2028'])
        verdicts.push(
          kit.judgeCli(
            await kit.hub(['-c', w.manifestPath, 'worktree', 'create', ...flags(create({ task_id: id }))]),
          ),
        );
      verdicts.push(
        kit.judgeHttp(await overHttp(kit, w.root, '/v3/ops/worktrees', create({ agent_id: 'a1\n' }))),
      );
      verdicts.push(
        kit.judgeRpc(await overMcp(kit, w.root, 'hub_worktree_create', create({ task_id: 'T1\u2029' }))),
      );
      const worst = verdicts.find((v) => v.verdict !== 'refused');
      return made([join(w.root, '.worktrees')], worst ?? verdicts[0]);
    },
  },
  {
    name: 'worktrees_path of the workspace hub.config.yaml symlinked outside the workspace',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const outside = kit.tempDir('hub-hostile-wt-out-');
      symlinkSync(outside, join(w.root, 'wt-link'));
      writeFileSync(join(w.root, 'hub.config.yaml'), 'workspace:\n  worktrees_path: wt-link/\n');
      const r = await kit.hub(['-c', w.manifestPath, 'worktree', 'create', ...flags(create())]);
      return made([join(outside, 'a1')], kit.judgeCli(r));
    },
  },
  {
    name: "post_create copy of '../../etc/passwd' in the workspace hub.config.yaml",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      writeFileSync(
        join(w.root, 'hub.config.yaml'),
        'coordination:\n  worktree:\n    post_create:\n      copy: [../../etc/passwd]\n',
      );
      const r = await kit.hub(['-c', w.manifestPath, 'worktree', 'create', ...flags(create())]);
      return made([join(w.root, '.worktrees/a1/platform~identity/T1')], kit.judgeCli(r));
    },
  },
  {
    name: "a branch named '-x' over HTTP (read as an option by git)",
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const r = await overHttp(kit, w.root, '/v3/ops/worktrees', create({ branch: '-x' }));
      return made([join(w.root, '.worktrees/a1/platform~identity/T1')], kit.judgeHttp(r));
    },
  },
  {
    name: 'destroy of a worktree with uncommitted work, without --force',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const c = await kit.hub(['-c', w.manifestPath, 'worktree', 'create', ...flags(create()), '--json']);
      if (c.code !== 0) return { verdict: 'crash', detail: `create failed: ${c.stderr}` };
      const path = JSON.parse(c.stdout).worktree.path;
      writeFileSync(join(path, 'README.md'), 'unsaved work\n');
      const r = await kit.hub(['-c', w.manifestPath, 'worktree', 'destroy', '--path', path]);
      if (
        !existsSync(join(path, 'README.md')) ||
        !readFileSync(join(path, 'README.md'), 'utf8').includes('unsaved')
      )
        return { verdict: 'accepted', detail: 'the dirty worktree was removed' };
      return kit.judgeCli(r);
    },
  },
  {
    name: 'adopt the main checkout over MCP (gc could then remove it)',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const msg = await overMcp(kit, w.root, 'hub_worktree_adopt', {
        path: 'platform/identity',
        repository: 'platform/identity',
        agent_id: 'a1',
        task_id: 'T1',
      });
      return kit.judgeRpc(msg);
    },
  },
  {
    name: 'a forged record pointing gc --force at a folder outside the workspace',
    expect: 'refused',
    run: async (kit) => {
      const w = ws(kit);
      const victim = kit.tempDir('hub-hostile-wt-victim-');
      writeFileSync(join(victim, 'precious.txt'), 'keep me\n');
      const common = join(w.repo, '.git');
      mkdirSync(join(w.root, '.hub/worktrees'), { recursive: true });
      const record = {
        id: 'wt-forged',
        path: victim,
        repository: 'platform/identity',
        branch: 'agent/T1',
        agent_id: 'gone',
        task_id: 'T1',
        status: 'released',
        common_dir: common,
        git_dir: join(common, 'worktrees', 'forged'),
        host: (await import('node:os')).hostname(),
        created_at: '2020-01-01T00:00:00.000Z',
        updated_at: '2020-01-01T00:00:00.000Z',
      };
      writeFileSync(
        join(w.root, '.hub/worktrees/platform~identity.json'),
        JSON.stringify({ worktrees: [record] }),
      );
      const r = await kit.hub(['-c', w.manifestPath, 'worktree', 'gc', '--force', '--json']);
      if (!existsSync(join(victim, 'precious.txt')))
        return { verdict: 'accepted', detail: 'the folder outside was removed' };
      // The record of a worktree git does not know is only dropped: nothing on disk is touched.
      return r.code === 0 && r.stdout.includes('"pruned"')
        ? { verdict: 'refused', detail: 'record pruned, folder untouched' }
        : kit.judgeCli(r);
    },
  },
];
