// Many machines on one DynamoDB: two `hub web serve` processes (dynamodb backend, one dynalite on loopback) and
// eight agents, each a chain of real `hub` CLI processes, three pointed (http backend, with a token) at one
// server, three at the other and two straight at DynamoDB. Concurrently, every agent adds a note to one shared
// objective (no update may be lost) and tries to take the same lease, the same overlapping file claim and the same
// handoff (exactly one of them may get each), while a watcher polls the events feed by sequence through one server
// and must see every event (objective and handoff changes included) exactly once, in order. A bigger run belongs
// in a bench, not here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynaliteStore, type RunningDynalite, startDynalite } from './fixtures/dynalite.js';
import { type BuiltWorkspace, buildWorkspace, removeTempDir } from './fixtures/index.js';
import type { HubRun } from './run-hub.js';
import { runHubAsync } from './run-hub-async.js';
import { type SpawnedServer, spawnWebServer } from './spawn-server.js';

const AGENTS = 8;
const TOKEN = 'many-machines-token-1234';
const IDS = { HUB_STATE_ORG_ID: 'team', HUB_STATE_WORKSPACE_ID: 'many-machines' };

let d: RunningDynalite;
let ws: BuiltWorkspace;
const servers: SpawnedServer[] = [];

beforeAll(async () => {
  d = await startDynalite();
  await dynaliteStore(d, { workspaceId: 'init' }).init!();
  ws = buildWorkspace({ projects: [{ name: 'p', repos: [{ name: 'r', files: { 'README.md': 'x\n' } }] }] });
  const serverEnv = { ...d.env, ...IDS, HUB_STATE_BACKEND: 'dynamodb', HUB_SERVER_TOKEN: TOKEN };
  for (let i = 0; i < 2; i++) servers.push(await spawnWebServer(ws.root, { env: serverEnv }));
}, 60_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  await d?.close();
  if (ws) removeTempDir(ws.root);
});

/** Agent i's environment: http to server A (0-2) or B (3-5), or dynamodb directly (6-7). */
function agentEnv(i: number): Record<string, string> {
  if (i >= 6) return { ...d.env, ...IDS, HUB_STATE_BACKEND: 'dynamodb' };
  const server = servers[i < 3 ? 0 : 1]!;
  return { ...IDS, HUB_STATE_BACKEND: 'http', HUB_STATE_URL: server.base, HUB_STATE_TOKEN: TOKEN };
}

const hub = (i: number, args: string[]) =>
  runHubAsync(['-c', ws.manifestPath, ...args, '--json'], { env: agentEnv(i) });

/** Granted (exit 0), refused by the rule (exit 1, refused/conflict with a holder), or anything else (a failure). */
function outcome(r: HubRun): 'granted' | 'refused' | string {
  if (r.code === 0) return 'granted';
  try {
    const code = r.json().error?.code;
    if (code === 'refused' || code === 'conflict') return 'refused';
    return `error ${code}: ${r.stdout}`;
  } catch {
    return `exit ${r.code}: ${r.stdout}${r.stderr}`;
  }
}

interface FeedEvent {
  id: string;
  seq?: number;
  kind: string;
  subject: string;
  data?: { by?: string };
}

/**
 * Polls the events feed by sequence (`--after-seq`, then each answer's `next_seq`) through agent `i`'s way in
 * until `done()`, then once more: what a watcher on another machine sees while the agents work.
 */
async function pollBySequence(i: number, done: () => boolean): Promise<FeedEvent[]> {
  const seen: FeedEvent[] = [];
  let after = 0;
  for (let last = false; !last; ) {
    last = done();
    const r = await hub(i, ['context', 'events', '--after-seq', String(after)]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const page = r.json() as { events: FeedEvent[]; next_seq: number };
    seen.push(...page.events.filter((e) => e.seq !== undefined));
    after = page.next_seq;
  }
  return seen;
}

/**
 * Every event once, in sequence order with no gap, and the same as the whole feed read afterwards: every change
 * (objective and handoff ones included) was recorded with a sequence, so the whole feed derives nothing more.
 */
function checkEventsSeenOnce(polled: FeedEvent[], whole: FeedEvent[]): void {
  const seqs = polled.map((e) => e.seq!);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, k) => k + 1));
  expect(whole.filter((e) => e.seq === undefined)).toEqual([]);
  expect(polled.map((e) => e.id)).toEqual(whole.map((e) => e.id));
  const ids = whole.map((e) => e.id);
  expect(new Set(ids).size).toBe(ids.length);
}

describe('many machines on one DynamoDB table', () => {
  it('loses no update and grants no exclusive lease, claim or handoff twice', async () => {
    const setup = await hub(6, ['context', 'handoff', 'create', '--id', 'h-hot', '--title', 'Hot handoff']);
    expect(setup.code, setup.stdout + setup.stderr).toBe(0);
    // The http backend reaches `hub state init` of the server, whose table exists.
    const init = await hub(0, ['state', 'init']);
    expect(init.json()).toMatchObject({ backend: 'dynamodb', status: 'existing' });

    // A watcher polls the feed through server B while the agents work.
    let working = true;
    const watcher = pollBySequence(4, () => !working);
    const results = await Promise.all(
      Array.from({ length: AGENTS }, async (_, i) => {
        const agent = `agent-${i}`;
        const note = await hub(i, [
          'context',
          'objective',
          'set',
          '--id',
          'shared',
          '--title',
          'Shared',
          '--notes',
          `from ${agent}`,
        ]);
        const lease = await hub(i, [
          'lease',
          'acquire',
          '--repository',
          'p/r',
          '--agent-id',
          agent,
          '--task-id',
          'hot',
          '--ttl',
          '1h',
        ]);
        const claim = await hub(i, [
          'claim',
          'declare',
          '--repository',
          'p/r',
          '--agent-id',
          agent,
          '--pattern',
          'hot/**',
          '--ttl',
          '1h',
        ]);
        const handoff = await hub(i, [
          'context',
          'handoff',
          'claim',
          '--id',
          'h-hot',
          '--by',
          agent,
          '--ttl',
          '1h',
        ]);
        return {
          agent,
          note: outcome(note),
          lease: outcome(lease),
          claim: outcome(claim),
          handoff: outcome(handoff),
        };
      }),
    );
    working = false;
    const polled = await watcher;
    // Every objective update landed: no failure, and every note is in the document.
    expect(results.map((r) => r.note)).toEqual(Array(AGENTS).fill('granted'));
    const objectives = await hub(3, ['context', 'objective', 'list']);
    const sharedDoc = JSON.stringify(objectives.json());
    for (let i = 0; i < AGENTS; i++) expect(sharedDoc).toContain(`from agent-${i}`);

    for (const kind of ['lease', 'claim', 'handoff'] as const) {
      const outcomes = results.map((r) => r[kind]);
      // Nothing failed for another reason than the rule, and exactly one agent got it.
      expect(
        outcomes.filter((o) => o !== 'granted' && o !== 'refused'),
        kind,
      ).toEqual([]);
      expect(
        outcomes.filter((o) => o === 'granted'),
        kind,
      ).toHaveLength(1);
    }
    const winner = (kind: 'lease' | 'claim' | 'handoff') => results.find((r) => r[kind] === 'granted')!.agent;

    // What the store holds agrees, read through the other server and directly.
    const leases = (await hub(2, ['lease', 'list', '--repository', 'p/r'])).json();
    expect(JSON.stringify(leases)).toContain(winner('lease'));
    const live = JSON.stringify(leases).match(/"agent_id":"agent-\d"/g) ?? [];
    expect(new Set(live)).toEqual(new Set([`"agent_id":"${winner('lease')}"`]));
    const claims = JSON.stringify((await hub(7, ['claim', 'list', '--repository', 'p/r'])).json());
    for (const r of results)
      expect(claims.includes(`"${r.agent}"`), r.agent).toBe(r.agent === winner('claim'));
    const handoffs = JSON.stringify((await hub(4, ['context', 'handoff', 'list'])).json());
    expect(handoffs).toContain(`"claimed_by":"${winner('handoff')}"`);

    const list = (await hub(5, ['context', 'events'])).json().events as FeedEvent[];
    checkEventsSeenOnce(polled, list);
    // An agent on DynamoDB directly reads the same recorded events, in the same sequence.
    const direct = (await hub(7, ['context', 'events'])).json().events as FeedEvent[];
    expect(direct.filter((e) => e.seq !== undefined).map((e) => [e.seq, e.id])).toEqual(
      polled.map((e) => [e.seq, e.id]),
    );
    expect(polled.length).toBeGreaterThan(AGENTS);
    // The watcher saw each agent's note on the shared objective as its own event: one creation, then updates.
    const shared = polled.filter((e) => e.subject === 'shared').map((e) => e.kind);
    expect(shared).toEqual(['ObjectiveCreated', ...Array(AGENTS - 1).fill('ObjectiveUpdated')]);
    // The one grant of the handoff is one event, by the winner; the create is one event.
    const claimed = list.filter((e) => e.subject === 'h-hot' && e.kind === 'HandoffClaimed');
    expect(claimed.map((e) => e.data?.by)).toEqual([winner('handoff')]);
    expect(list.filter((e) => e.subject === 'h-hot' && e.kind === 'HandoffCreated')).toHaveLength(1);
  }, 180_000);
});
