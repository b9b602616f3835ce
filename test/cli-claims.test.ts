// Claims through the real CLI, a real server and real git: the spec's rules, conflicts with a witness, TTLs,
// events, and eight racing declarers on the local backend (processes), on a server (HTTP requests) and through the
// http backend (CLI processes whose store is that server).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { bundleClaimRacer, type RaceRound, runClaimRacers } from './fixtures/claim-racers.js';
import { createTempDir, hubAsync, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-cli-claims-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  srv = await startTestServer({ root });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(dir);
});

const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);
const storedClaims = (key: string) =>
  JSON.parse(readFileSync(join(root, '.hub', 'claims', `${key}.json`), 'utf8')).claims as Array<{
    agent_id: string;
    status: string;
  }>;

describe('claim declare and check on the CLI', () => {
  it('claims a component as <path>/**, keeping project/repo and the component name', () => {
    const r = hub(
      'claim',
      'declare',
      '--repository',
      'platform/identity',
      '--agent-id',
      'cli-a',
      '--component',
      'api',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      ok: true,
      created: true,
      claim: {
        repository: 'platform/identity',
        component: 'api',
        patterns: ['services/api/**'],
        status: 'active',
      },
    });
  });

  it('refuses an overlapping claim of another agent (exit 1, 409 on HTTP) naming the witness path', async () => {
    const r = hub(
      'claim',
      'declare',
      '--repository',
      'platform/identity',
      '--agent-id',
      'cli-b',
      '--component',
      'auth-plugin',
    );
    expect(r.code).toBe(1);
    const err = r.json().error;
    expect(err).toMatchObject({ code: 'refused', details: { rule: 'claimed_by_another_agent' } });
    expect(err.message).toContain('both match services/api/plugins/auth');
    expect(err.details.conflicts[0]).toMatchObject({
      agent_id: 'cli-a',
      pattern: 'services/api/plugins/auth/**',
      claimed_pattern: 'services/api/**',
      witness: 'services/api/plugins/auth',
    });
    const http = await call(srv.base, 'POST', '/v3/ops/claims', {
      body: { repository: 'platform/identity', agent_id: 'cli-b', patterns: ['services/api/x.go'] },
    });
    expect(http.status).toBe(409);
    expect(http.json.error.details.conflicts[0].witness).toBe('services/api/x.go');
  });

  it('checks patterns against other agents only, with concept hints that are not conflicts', () => {
    const sem = hub(
      'semantic',
      'declare',
      '--concept',
      'Auth',
      '--repository',
      'platform/identity',
      '--pattern',
      '**/auth/**',
    );
    expect(sem.code, sem.stdout).toBe(0);
    const theirs = hub(
      'claim',
      'check',
      '--repository',
      'platform/identity',
      '--pattern',
      'services/*/plugins/auth/*.go',
    );
    // A check that finds conflicts exits 1, the JSON still printed (issue 27).
    expect(theirs.code).toBe(1);
    expect(theirs.json()).toMatchObject({
      ok: false,
      conflicts: [{ agent_id: 'cli-a', witness: 'services/api/plugins/auth/a.go' }],
      concept_hints: [{ concept_id: 'auth' }],
    });
    const mine = hub(
      'claim',
      'check',
      '--repository',
      'platform/identity',
      '--pattern',
      'services/*/plugins/auth/*.go',
      '--agent-id',
      'cli-a',
    );
    expect(mine.json()).toMatchObject({ ok: true, conflicts: [], concept_hints: [{ concept_id: 'auth' }] });
  });

  it('refuses neither patterns nor a component, unknown components and repositories with did-you-mean, and bad globs', () => {
    const cases: Array<[string[], string, string]> = [
      [['--repository', 'platform/identity', '--agent-id', 'x'], 'validation', 'patterns_or_component'],
      [
        ['--repository', 'platform/identity', '--agent-id', 'x', '--component', 'apii'],
        'not_found',
        'unknown_component',
      ],
      [
        ['--repository', 'platform/identty', '--agent-id', 'x', '--pattern', 'a'],
        'not_found',
        'unknown_repository',
      ],
      [
        ['--repository', 'platform/identity', '--agent-id', 'x', '--pattern', '../x/**'],
        'validation',
        'no_parent_segments',
      ],
      [
        ['--repository', 'platform/identity', '--agent-id', 'x', '--pattern', '/etc/**'],
        'validation',
        'relative',
      ],
      [
        ['--repository', 'platform/identity', '--agent-id', 'x', '--pattern', 'src/[a'],
        'validation',
        'syntax',
      ],
      [
        ['--repository', 'platform/identity', '--agent-id', 'x y', '--pattern', 'a'],
        'validation',
        expect.any(String),
      ],
    ];
    for (const [args, code, rule] of cases) {
      const r = hub('claim', 'declare', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json().error, args.join(' ')).toMatchObject({ code, details: { rule } });
    }
    expect(
      hub('claim', 'declare', '--repository', 'platform/identty', '--agent-id', 'x', '--pattern', 'a').json()
        .error.message,
    ).toContain("did you mean 'identity'");
    expect(
      hub('claim', 'check', '--repository', 'platform/identity', '--component', 'apii').json().error.message,
    ).toContain("did you mean 'api'");
  });

  it('lists, renews, releases, and shows every change in the events feed', () => {
    const list = hub('claim', 'list', '--repository', 'platform/identity').json().claims;
    expect(list.map((c: { agent_id: string }) => c.agent_id)).toEqual(['cli-a']);
    const hb = hub('claim', 'heartbeat', '--agent-id', 'cli-a', '--ttl', '2h').json();
    expect(hb.renewed).toHaveLength(1);
    const rel = hub('claim', 'release', '--agent-id', 'cli-a', '--repository', 'platform/identity').json();
    expect(rel.released.map((c: { status: string }) => c.status)).toEqual(['released']);
    expect(hub('claim', 'list').json().claims).toEqual([]);
    const kinds = hub('context', 'events')
      .json()
      .events.filter((e: { source: string }) => e.source === 'acl' || e.source === 'semantic')
      .map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual([
      'ClaimDeclared',
      'ClaimRefused',
      'ClaimRefused',
      'ConceptDeclared',
      'ClaimReleased',
    ]);
  });
});

// Eight declarations whose patterns overlap pairwise (infra/13/a is under both odd patterns 1 and 3).
const racers = (repository: string, round: string) =>
  Array.from({ length: 8 }, (_, i) => [
    'claim',
    'declare',
    '--repository',
    repository,
    '--agent-id',
    `racer-${round}-${i}`,
    '--pattern',
    i % 2 === 0 ? 'infra/**' : `infra/*${i}*/**`,
    '--json',
  ]);

describe('eight racing declarers leave exactly one holder', () => {
  let racer: { bundle: string; remove(): void };
  let memSrv: RunningServer;
  beforeAll(async () => {
    racer = await bundleClaimRacer();
    // A server whose store is in its memory: its writes interleave at every await, so it shows what an
    // unserialized declaration would do (the local backend's synchronous reads would hide it in one process).
    memSrv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'memory' } });
  });
  afterAll(async () => {
    racer?.remove();
    await memSrv?.close();
  });

  const race = (repository: string, rounds: number, env?: Record<string, string>) =>
    runClaimRacers({ bundle: racer.bundle, root, manifest, repository, racers: 8, rounds, env });
  const expectOneHolderEachRound = (rounds: RaceRound[]) => {
    expect(rounds.flatMap((r) => r.errors)).toEqual([]);
    expect(rounds.map((r) => [r.granted, r.refused])).toEqual(rounds.map(() => [1, 7]));
  };

  it('as eight hub CLI processes on the local backend', async () => {
    const runs = await Promise.all(racers('platform/cloud-infra', 'l0').map((a) => hubAsync(manifest, a)));
    expect(
      runs.filter((r) => r.code === 0),
      runs.map((r) => r.out).join('\n'),
    ).toHaveLength(1);
    expect(runs.filter((r) => r.code === 1 && r.out.includes('claimed_by_another_agent'))).toHaveLength(7);
    expect(storedClaims('platform~cloud-infra').filter((c) => c.status === 'active')).toHaveLength(1);
  });

  it('as eight processes released together, round after round, on the local backend', async () => {
    const rounds = await race('platform/gateway', 10);
    expectOneHolderEachRound(rounds);
    expect(storedClaims('platform~gateway').filter((c) => c.status === 'active')).toHaveLength(10);
  });

  it('as eight processes whose state backend is a hub server (http)', async () => {
    expectOneHolderEachRound(
      await race('storefront/web', 5, { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base }),
    );
    expectOneHolderEachRound(
      await race('storefront/web', 5, { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: memSrv.base }),
    );
  });

  it('as eight concurrent requests to a server, on its local and its memory store', async () => {
    for (const base of [srv.base, memSrv.base])
      for (let round = 0; round < 5; round++) {
        const replies = await Promise.all(
          racers('storefront/catalog', `h${round}`).map((a) =>
            call(base, 'POST', '/v3/ops/claims', {
              body: { repository: a[3], agent_id: a[5], patterns: [a[7]] },
            }),
          ),
        );
        expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
        const winner = replies.find((r) => r.status === 200)!.json.claim.agent_id;
        const live = await call(base, 'GET', '/v3/ops/claims?repository=storefront/catalog');
        expect(live.json.claims.map((c: { agent_id: string }) => c.agent_id)).toEqual([winner]);
        await call(base, 'POST', '/v3/ops/claims/release', { body: { agent_id: winner } });
      }
  });
});
