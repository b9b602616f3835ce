import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { git } from '../../test/fixtures/index.js';
import { RefusedError, ValidationError } from '../infra/index.js';
import { appConfigSchema } from '../model/index.js';
import type { WorktreeConfig } from './worktrees.js';
import { PENDING_MS, portsDoc } from './worktrees-ports.js';
import { destroyWorktree, gcWorktrees } from './worktrees-remove.js';
import { create, type Env, removeWorktreeTemps, setup, thrown } from './worktrees-test-env.js';

let env: Env;
beforeEach(() => {
  env = setup();
});
afterAll(removeWorktreeTemps);

const withPorts = (e: Env, count: number, range: [number, number], tpl?: Record<string, string>) =>
  ({ ...e.cfg, ports: { count, range }, ...(tpl ? { env: tpl } : {}) }) satisfies WorktreeConfig;

const leases = async (e: Env) =>
  (
    (await e.deps.store.read(portsDoc('host-a'))).value as {
      leases: Array<{ worktree_id: string; ports: number[] }>;
    }
  )?.leases ?? [];

describe('worktree ports and .env.hub', () => {
  it('leases ports, returns them, and writes them with the rendered env to a git-ignored .env.hub', async () => {
    const cfg = withPorts(env, 2, [41000, 41009], {
      DATABASE_URL: 'postgres://localhost/app_{task_id}',
      API: 'http://127.0.0.1:{port_2}/{agent_id}',
      NOTE: 'a value with "quotes" and spaces',
    });
    const gitignore = readFileSync(join(env.main, '.gitignore'), 'utf8');
    const r = await create(env, {}, cfg);
    expect(r.ports).toEqual([41000, 41001]);
    expect(r.worktree.ports).toEqual([41000, 41001]);
    const file = join(r.worktree.path, '.env.hub');
    expect(r.env_file).toBe(file);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.filter((l) => !l.startsWith('#'))).toEqual([
      'HUB_PORT_1=41000',
      'HUB_PORT_2=41001',
      'DATABASE_URL=postgres://localhost/app_T1',
      'API=http://127.0.0.1:41001/agent-1',
      'NOTE="a value with \\"quotes\\" and spaces"',
      '',
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Ignored through info/exclude: git sees nothing new, and the user's .gitignore is as it was.
    expect(git(r.worktree.path, ['status', '--porcelain'])).toBe('');
    expect(git(r.worktree.path, ['check-ignore', '.env.hub'])).toBe('.env.hub');
    expect(readFileSync(join(env.main, '.gitignore'), 'utf8')).toBe(gitignore);
    expect(readFileSync(join(env.main, '.git', 'info', 'exclude'), 'utf8')).toContain('/.env.hub\n');
    expect(await leases(env)).toMatchObject([{ worktree_id: r.worktree.id, ports: [41000, 41001] }]);
  });

  it('gives every live worktree of the machine its own ports, whatever the repository', async () => {
    const cfg = withPorts(env, 2, [41000, 41009]);
    const a = await create(env, {}, cfg);
    const b = await create(env, { taskId: 'T2', branch: 'agent/T2' }, cfg);
    const billing = await env.repoOf('platform/billing');
    const { createWorktree } = await import('./worktrees.js');
    const c = await createWorktree(env.deps, cfg, {
      target: billing,
      agentId: 'agent-2',
      taskId: 'T3',
      branch: 'agent/T3',
      base: 'HEAD',
    });
    expect([a.ports, b.ports, c.ports]).toEqual([
      [41000, 41001],
      [41002, 41003],
      [41004, 41005],
    ]);
  });

  it('refuses when the range is exhausted, naming the range and its holders; nothing is left behind', async () => {
    const cfg = withPorts(env, 2, [41000, 41002]);
    const a = await create(env, {}, cfg);
    const e = (await thrown(
      create(env, { taskId: 'T2', branch: 'agent/new', base: 'main' }, cfg),
    )) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.message).toContain('range [41000, 41002] has 1 free port(s), a worktree needs 2');
    expect(e.message).toContain(`${a.worktree.id} (agent-1, task T1: 41000, 41001)`);
    expect(e.details).toMatchObject({
      field: 'coordination.worktree.ports.range',
      rule: 'ports_available',
      holders: [{ worktree_id: a.worktree.id, agent_id: 'agent-1', task_id: 'T1', ports: [41000, 41001] }],
    });
    // The refused worktree, its new branch and any lease are gone.
    expect(existsSync(join(env.ws.root, '.worktrees', 'agent-1', 'platform~identity', 'T2'))).toBe(false);
    expect(git(env.main, ['branch', '--list', 'agent/new'])).toBe('');
    expect((await leases(env)).map((l) => l.worktree_id)).toEqual([a.worktree.id]);
  });

  it('releases the ports on destroy and on gc, so the next worktree takes them', async () => {
    const cfg = withPorts(env, 1, [41000, 41000]);
    const a = await create(env, {}, cfg);
    await destroyWorktree(env.deps, env.repoOf, { id: a.worktree.id, cwd: env.ws.root }, false);
    expect(await leases(env)).toEqual([]);
    const b = await create(env, { taskId: 'T2', branch: 'agent/T2' }, cfg);
    expect(b.ports).toEqual([41000]);
    // gc: agent-1 is not live in the registry (no heartbeat), the worktree is clean: removed, ports released.
    env.advance(48 * 3600_000);
    const gc = await gcWorktrees(env.deps, env.repoOf, { dryRun: false, force: false });
    expect(gc.results.map((o) => [o.id, o.action])).toEqual([[b.worktree.id, 'removed']]);
    expect(await leases(env)).toEqual([]);
  });

  it('takes back the ports of a lease whose worktree was never recorded, once it is PENDING_MS old', async () => {
    const cfg = withPorts(env, 1, [41000, 41000]);
    // A creator that crashed between its lease and its record.
    await env.deps.store.write(
      portsDoc('host-a'),
      {
        leases: [
          {
            worktree_id: 'wt-crashed',
            ports: [41000],
            repository: 'platform/identity',
            agent_id: 'agent-9',
            task_id: 'T9',
            path: '/gone',
            leased_at: env.deps.now().toISOString(),
          },
        ],
      },
      '""',
    );
    const e = (await thrown(create(env, {}, cfg))) as RefusedError;
    expect(e.details).toMatchObject({ rule: 'ports_available', holders: [{ worktree_id: 'wt-crashed' }] });
    env.advance(PENDING_MS + 1);
    expect((await create(env, {}, cfg)).ports).toEqual([41000]);
  });

  it('refuses a branch that ships its own .env.hub rather than overwrite or write through it', async () => {
    git(env.main, ['checkout', '-q', '-b', 'agent/shipped']);
    writeFileSync(join(env.main, '.env.hub'), 'MINE=1\n');
    git(env.main, ['add', '.env.hub']);
    git(env.main, ['commit', '-q', '-m', 'ships .env.hub']);
    git(env.main, ['checkout', '-q', 'main']);
    const e = (await thrown(
      create(env, { branch: 'agent/shipped' }, withPorts(env, 1, [41000, 41001])),
    )) as RefusedError;
    expect(e.details).toMatchObject({ field: 'branch', rule: 'env_file_free' });
    expect(await leases(env)).toEqual([]);
    // Without ports or env configured, hub writes no file and the branch is fine.
    const r = await create(env, { branch: 'agent/shipped' });
    expect(r).toMatchObject({ ports: [], env_file: null });
    expect(readFileSync(join(r.worktree.path, '.env.hub'), 'utf8')).toBe('MINE=1\n');
  });

  it('writes .env.hub for env templates alone, and refuses a placeholder it cannot fill', async () => {
    const r = await create(env, {}, { ...env.cfg, env: { DB: 'app_{task_id}' } });
    expect(r.ports).toEqual([]);
    expect(readFileSync(r.env_file!, 'utf8')).toContain('DB=app_T1\n');
    const e = await thrown(
      create(env, { taskId: 'T2', branch: 'agent/T2' }, { ...env.cfg, env: { P: '{port_1}' } }),
    );
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).message).toContain(
      'coordination.worktree.env.P: {port_1} is not a placeholder',
    );
  });
});

describe('coordination.worktree.ports and env in the config', () => {
  const parse = (worktree: unknown) => appConfigSchema().safeParse({ coordination: { worktree } });
  const messages = (worktree: unknown) => {
    const r = parse(worktree);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('accepts a range that holds count ports and templates of known placeholders', () => {
    expect(
      parse({
        ports: { count: 2, range: [3000, 3099] },
        env: { DATABASE_URL: 'postgres://localhost/app_{task_id}', URL: 'http://localhost:{port_2}' },
      }).success,
    ).toBe(true);
  });

  it('names a range too small or upside down, unknown placeholders, ports beyond count and HUB_PORT_n', () => {
    expect(messages({ ports: { count: 3, range: [3000, 3001] } })).toEqual([
      'coordination.worktree.ports.range: range [3000, 3001] holds 2 port(s), fewer than count 3: not even one worktree would fit',
    ]);
    expect(messages({ ports: { count: 1, range: [3001, 3000] } })[0]).toContain(
      'the low end is above the high end',
    );
    expect(messages({ ports: { count: 1, range: [1, 70000] } })[0]).toContain(
      'coordination.worktree.ports.range.1',
    );
    expect(
      messages({ ports: { count: 1, range: [3000, 3001] }, env: { A: '{port_2}', B: '{home}' } }),
    ).toEqual([
      'coordination.worktree.env.A: {port_2}: coordination.worktree.ports gives 1 port(s) per worktree, so {port_1}..{port_1} exist',
      'coordination.worktree.env.B: {home} is not a placeholder; use {agent_id}, {task_id} or {port_1}..{port_<count>}',
    ]);
    expect(messages({ env: { HUB_PORT_1: 'x' } })[0]).toContain('HUB_PORT_<n> is written by hub');
    expect(messages({ env: { A: 'two\nlines' } })[0]).toContain('one line');
  });
});
