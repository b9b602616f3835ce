import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let server: RunningServer;
let mcp: Client;

const hub = (...args: string[]) => {
  const r = runHub(['-c', join(root, '.hub.yml'), ...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** `aos doctor` exits 1 when it finds something to do (health warning or error) and 0 when health is ok. */
const doctorRun = () => {
  const r = runHub(['-c', join(root, '.hub.yml'), 'aos', 'doctor', '--json']);
  const report = r.json();
  expect(r.code, r.stdout + r.stderr).toBe(report.health === 'ok' ? 0 : 1);
  return report;
};
/** Status and doctor are stamped with the time they were made; the rest must match across surfaces. */
const unstamped = (v: Record<string, unknown>) => ({ ...v, generated_at: '<time>' });

beforeAll(async () => {
  dir = createTempDir('hub-aos-');
  root = createDemo(join(dir, 'demo')).root;
  const env = { ...process.env, HUB_CACHE_DIR: 'off' } as Record<string, string>;
  server = await startTestServer({ root, env });
  mcp = await connectHub(root);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  removeTempDir(dir);
});

describe('aos: the agent operating view', () => {
  it('sees a dead agent on every surface alike, recovers what it held, and keeps the live one whole', async () => {
    const R = 'platform/identity';
    // ghost lives for one second and then stops heartbeating, holding a 1h lease, its branch, a claim, a worktree
    hub('agent', 'heartbeat', '--agent-id', 'ghost', '--ttl', '1s');
    hub(
      'lease',
      'acquire',
      '--repository',
      R,
      '--agent-id',
      'ghost',
      '--task-id',
      'g1',
      '--allocate',
      '--ttl',
      '1h',
    );
    hub('claim', 'declare', '--repository', R, '--agent-id', 'ghost', '--pattern', 'docs/**', '--ttl', '1h');
    const wt = hub(
      'worktree',
      'create',
      '--repository',
      R,
      '--agent-id',
      'ghost',
      '--task-id',
      'g1',
      '--branch',
      'agent/g1',
    );
    hub(
      'lease',
      'acquire',
      '--repository',
      R,
      '--agent-id',
      'alive',
      '--task-id',
      'a1',
      '--allocate',
      '--ttl',
      '1h',
    );
    await pause(1_200);
    await expect(callJson(mcp, 'hub_aos_heartbeat', { agent_id: 'alive', ttl: '1h' })).resolves.toMatchObject(
      {
        agent: { agent_id: 'alive' },
      },
    );
    await pause(50);

    const cliStatus = hub('aos', 'status');
    expect(cliStatus.subsystems.acl).toMatchObject({
      available: true,
      summary: { dead_holders: ['ghost'], leases_active: 2, claims_active: 1, worktrees_active: 1 },
    });
    expect(unstamped(await callJson(mcp, 'hub_aos_status'))).toEqual(unstamped(cliStatus));
    expect(unstamped((await call(server.base, 'GET', '/v3/ops/aos/status')).json)).toEqual(
      unstamped(cliStatus),
    );

    const doctor = doctorRun();
    expect(doctor.health).toBe('warning');
    expect(doctor.findings.map((f: { code: string; subject: string }) => `${f.code} ${f.subject}`)).toEqual(
      expect.arrayContaining(['dead_agent_holdings ghost']),
    );
    expect(doctor.suggested_commands).toEqual(['hub aos recover --agent-id ghost']);
    expect(unstamped(await callJson(mcp, 'hub_aos_doctor'))).toEqual(unstamped(doctor));
    expect(unstamped((await call(server.base, 'GET', '/v3/ops/aos/doctor')).json)).toEqual(unstamped(doctor));

    // a live agent is refused unless forced; a dry run changes nothing
    const refused = runHub(['-c', join(root, '.hub.yml'), 'aos', 'recover', '--agent-id', 'alive']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('agent alive is live');
    const dry = hub('aos', 'recover', '--dry-run');
    expect(dry.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual(['ghost']);
    expect(doctorRun().findings).toEqual(doctor.findings);

    const done = (await call(server.base, 'POST', '/v3/ops/aos/recover', { body: {} })).json;
    expect(done.agents).toMatchObject([
      { agent_id: 'ghost', branches: ['agent/g1'], worktrees: [{ id: wt.worktree.id, action: 'removed' }] },
    ]);
    expect(existsSync(wt.worktree.path)).toBe(false);
    expect(doctorRun()).toMatchObject({ health: 'ok', findings: [] });
    const leases = hub('lease', 'list', '--status', 'all').leases as Array<Record<string, string>>;
    expect(leases.map((l) => [l.agent_id, l.status]).sort()).toEqual([
      ['alive', 'active'],
      ['ghost', 'released'],
    ]);
    const kinds = hub('context', 'events').events.map(
      (e: { source: string; kind: string }) => `${e.source}:${e.kind}`,
    );
    expect(kinds).toEqual(
      expect.arrayContaining(['aos:AgentRecovered', 'acl:WorktreeDestroyed', 'acl:LeaseReleased']),
    );
  });

  it('previews, on every surface alike, what the scheduler would give an agent, and says when nothing is ready', async () => {
    const cli = hub('aos', 'next', '--agent-id', 'alive');
    expect(cli).toMatchObject({ mode: 'preview', agent_id: 'alive', bind: null, next_commands: [] });
    expect(cli.schedule.decisions).toEqual([]);
    expect(unstamped(await callJson(mcp, 'hub_aos_next', { agent_id: 'alive' }))).toEqual(unstamped(cli));
    const viaHttp = await call(server.base, 'POST', '/v3/ops/aos/next', { body: { agent_id: 'alive' } });
    expect(unstamped(viaHttp.json)).toEqual(unstamped(cli));
  });
});
