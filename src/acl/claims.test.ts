import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { readManifestFile } from '../model/index.js';
import { createMemoryStore } from '../state/index.js';
import { agentHeartbeat } from './agents-heartbeat.js';
import { declareClaim } from './claims-declare.js';
import { checkClaims, heartbeatClaims, listClaims, releaseClaims } from './claims-lifecycle.js';
import { folderGlob, resolveClaimScope } from './claims-patterns.js';
import { claimsDocument } from './claims-records.js';
import { globMatches } from './glob/index.js';
import { resolveRepository } from './repository-ref.js';

const ws = buildWorkspace({
  projects: [
    {
      name: 'platform',
      repos: [
        {
          name: 'identity',
          files: { 'services/api/main.go': 'x', 'README.md': 'x' },
          components: [
            { name: 'api', path: 'services/api' },
            { name: 'auth', path: 'services/api/plugins/auth' },
            { name: 'root', path: '.' },
            { name: 'odd', path: 'lib/a(b)' },
          ],
        },
        { name: 'web', files: { 'a.txt': 'a' } },
      ],
    },
  ],
});
afterAll(() => removeTempDir(ws.root));
const catalog = new Catalog(readManifestFile(ws.manifestPath));
const repoDeps = { catalog, checkouts: checkoutsOf(catalog), definitionRoot: catalog.file.root };
const identity = await resolveRepository(repoDeps, 'platform/identity');
const components = catalog.componentsByRepo.get('platform/identity')!;

const thrown = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

function clock(start = '2026-01-01T00:00:00Z') {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

function memDeps(c = clock()) {
  return { store: createMemoryStore(), retries: 1, now: c.now };
}

const events = async (deps: ReturnType<typeof memDeps>) => readRecordedEvents(deps.store);

describe('the scope of a claim (the spec rules)', () => {
  it('expands a component without patterns to <component path>/**, keeping its name', () => {
    expect(resolveClaimScope(components, identity, { component: 'api' })).toEqual({
      component: 'api',
      patterns: ['services/api/**'],
    });
  });

  it('expands a component at the repository root (.) to **', () => {
    expect(resolveClaimScope(components, identity, { component: 'root' }).patterns).toEqual(['**']);
  });

  it('spells a component path with glob characters literally', () => {
    expect(resolveClaimScope(components, identity, { component: 'odd' }).patterns).toEqual([
      'lib/a[(]b[)]/**',
    ]);
  });

  it('spells any folder literally, or refuses it by name', () => {
    for (const path of ['lib/$$a', '!x/y', 'a"b', 'x^y/{z}', 'a b/c+d']) {
      const glob = folderGlob(path);
      expect(globMatches(glob, `${path}/file`), `${path} -> ${glob}`).toBe(true);
      expect(globMatches(glob, `${path}x/file`), `${path} -> ${glob}`).toBe(false);
    }
    expect(() => folderGlob('../up')).toThrow(ValidationError);
  });

  it('stores explicit patterns as given with a component (never rewritten against its path)', () => {
    expect(resolveClaimScope(components, identity, { component: 'api', patterns: ['docs/**'] })).toEqual({
      component: 'api',
      patterns: ['docs/**'],
    });
  });

  it('refuses neither patterns nor a component', () => {
    const e = (() => {
      try {
        resolveClaimScope(components, identity, {});
      } catch (err) {
        return err;
      }
    })() as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.details).toMatchObject({ field: 'patterns', rule: 'patterns_or_component' });
  });

  it('answers an unknown component with did-you-mean', () => {
    try {
      resolveClaimScope(components, identity, { component: 'apl' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).message).toContain("did you mean 'api'");
    }
  });

  it('refuses invalid, absolute and path-escaping patterns, naming the field and the rule', () => {
    for (const [bad, rule] of [
      ['../x/**', 'no_parent_segments'],
      ['/etc/**', 'relative'],
      ['src/[a', 'syntax'],
      ['!src/**', 'no_negation'],
    ] as const) {
      try {
        resolveClaimScope(components, identity, { patterns: ['ok/**', bad] });
        expect.unreachable(bad);
      } catch (err) {
        expect(err, bad).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).details, bad).toMatchObject({ field: 'patterns[1]', rule });
      }
    }
  });
});

describe('declaring claims', () => {
  it('keeps the repository as project/repo and the component as its name', async () => {
    const deps = memDeps();
    const r = await declareClaim(deps, {
      repository: 'platform/identity',
      agent_id: 'a1',
      component: 'api',
      patterns: ['services/api/**'],
    });
    expect(r.claim).toMatchObject({
      repository: 'platform/identity',
      component: 'api',
      patterns: ['services/api/**'],
      status: 'active',
      ttl: '30m',
      expires_at: '2026-01-01T00:30:00.000Z',
    });
    const stored = await deps.store.read<{ claims: unknown[] }>(claimsDocument('platform/identity'));
    expect(stored.value?.claims).toHaveLength(1);
  });

  it('refuses an overlap with a live claim of another agent, naming each conflict and its witness', async () => {
    const deps = memDeps();
    const held = await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/**'] });
    const e = (await thrown(
      declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['docs/**', 'src/*/x.ts'] }),
    )) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.message).toContain('both match src/a/x.ts');
    expect(e.details).toMatchObject({
      rule: 'claimed_by_another_agent',
      conflicts: [
        {
          claim_id: held.claim.claim_id,
          agent_id: 'a1',
          pattern: 'src/*/x.ts',
          claimed_pattern: 'src/**',
          witness: 'src/a/x.ts',
        },
      ],
    });
    expect((await listClaims(deps, { repository: 'p/r' })).map((c) => c.agent_id)).toEqual(['a1']);
    expect((await events(deps)).map((x) => x.kind)).toEqual(['ClaimDeclared', 'ClaimRefused']);
  });

  it('decides overlap exactly: globs that share no real path do not conflict', async () => {
    const deps = memDeps();
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/*.py'] });
    // The earlier product missed this overlap (src/a.py matches both).
    const e = (await thrown(
      declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['src/a*'] }),
    )) as RefusedError;
    expect((e.details!.conflicts as Array<{ witness: string }>)[0]!.witness).toBe('src/a.py');
    // and did not: these never meet.
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a3', patterns: ['src/*.ts', 'lib/**'] });
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a4', patterns: ['srcs/**', 'src/*/*.py'] });
    // Other repositories never conflict.
    await declareClaim(deps, { repository: 'p/other', agent_id: 'a2', patterns: ['**'] });
    expect(await listClaims(deps, {})).toHaveLength(4);
  });

  it('never makes an agent conflict with itself: a second declaration extends and renews its claim', async () => {
    const c = clock();
    const deps = memDeps(c);
    const first = await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/**'] });
    c.advance(60_000);
    const again = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'a1',
      patterns: ['src/a/**', 'docs/**'],
      ttl: '1h',
    });
    expect(again.created).toBe(false);
    expect(again.claim.claim_id).toBe(first.claim.claim_id);
    expect(again.claim.patterns).toEqual(['src/**', 'src/a/**', 'docs/**']);
    expect(again.added_patterns).toEqual(['src/a/**', 'docs/**']);
    expect(again.claim.expires_at).toBe('2026-01-01T01:01:00.000Z');
    // Another task of the same agent is a claim of its own, still no conflict.
    const other = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'a1',
      task_id: 't2',
      patterns: ['src/**'],
    });
    expect(other.created).toBe(true);
    expect((await events(deps)).map((x) => x.kind)).toEqual([
      'ClaimDeclared',
      'ClaimExtended',
      'ClaimDeclared',
    ]);
  });

  it('grants despite an overlap with allow_overlap, recording it on the claim', async () => {
    const deps = memDeps();
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/**'] });
    const r = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'a2',
      patterns: ['src/x.ts'],
      allow_overlap: true,
    });
    expect(r.claim.overlaps).toEqual([
      expect.objectContaining({
        agent_id: 'a1',
        pattern: 'src/x.ts',
        claimed_pattern: 'src/**',
        witness: 'src/x.ts',
      }),
    ]);
  });

  it('refuses a TTL longer than 7d and an invalid agent id before writing', async () => {
    const deps = memDeps();
    for (const [input, rule] of [
      [{ ttl: '8d' }, 'max_ttl'],
      [{ ttl: 'soon' }, expect.any(String)],
      [{ agent_id: '../x' }, expect.any(String)],
    ] as const) {
      const e = (await thrown(
        declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['x'], ...input }),
      )) as ValidationError;
      expect(e, JSON.stringify(input)).toBeInstanceOf(ValidationError);
      expect(e.details?.rule).toEqual(rule);
    }
    expect((await deps.store.read(claimsDocument('p/r'))).value).toBeUndefined();
  });
});

describe('many claims', () => {
  it('lists at most 100 conflicts, saying when there are more', async () => {
    const deps = memDeps();
    for (let i = 0; i < 101; i++)
      await declareClaim(deps, {
        repository: 'p/r',
        agent_id: `a${i}`,
        patterns: [`**/m${i}/**`],
        allow_overlap: true,
      });
    const all = await checkClaims(deps, { repository: 'p/r', patterns: ['**/x/**'] });
    expect(all.conflicts).toHaveLength(100);
    expect(all.truncated).toBe(true);
    expect(await checkClaims(deps, { repository: 'p/r', patterns: ['a.txt'] })).toEqual({
      conflicts: [],
      truncated: false,
    });
    const e = (await thrown(
      declareClaim(deps, { repository: 'p/r', agent_id: 'z', patterns: ['**'] }),
    )) as RefusedError;
    expect(e.details).toMatchObject({ conflicts_truncated: true });
    expect(e.message).toContain('and at least 99 more overlaps');
  });
});

describe('TTL, heartbeat, release and list', () => {
  it('lets a claim lapse after its TTL: it stops conflicting, lists as expired, and the next write records it', async () => {
    const c = clock();
    const deps = memDeps(c);
    const dead = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'dead',
      patterns: ['src/**'],
      ttl: '10m',
    });
    c.advance(10 * 60_000 + 1);
    expect((await checkClaims(deps, { repository: 'p/r', patterns: ['src/x'] })).conflicts).toEqual([]);
    expect(await listClaims(deps, { status: 'expired' })).toMatchObject([
      { claim_id: dead.claim.claim_id, status: 'expired' },
    ]);
    // Listing and checking never wrote.
    expect(
      (await deps.store.read<{ claims: Array<{ status: string }> }>(claimsDocument('p/r'))).value!.claims[0]!
        .status,
    ).toBe('active');
    const r = await declareClaim(deps, { repository: 'p/r', agent_id: 'live', patterns: ['src/x'] });
    expect(r.expired.map((x) => x.claim_id)).toEqual([dead.claim.claim_id]);
    const stored = (
      await deps.store.read<{ claims: Array<{ claim_id: string; status: string }> }>(claimsDocument('p/r'))
    ).value!.claims;
    expect(stored.find((x) => x.claim_id === dead.claim.claim_id)!.status).toBe('expired');
    expect((await events(deps)).map((x) => x.kind)).toEqual([
      'ClaimDeclared',
      'ClaimExpired',
      'ClaimDeclared',
    ]);
  });

  it("renews an agent's claims with its agent heartbeat, each for its own TTL", async () => {
    const c = clock();
    const deps = memDeps(c);
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/**'], ttl: '10m' });
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['lib/**'], ttl: '10m' });
    c.advance(9 * 60_000);
    const hb = await agentHeartbeat(deps, 'a1');
    expect(hb.renewed.claims!.map((x) => [x.agent_id, x.expires_at])).toEqual([
      ['a1', '2026-01-01T00:19:00.000Z'],
    ]);
    c.advance(5 * 60_000);
    const live = await listClaims(deps, { repository: 'p/r', status: 'active' });
    expect(live.map((x) => x.agent_id)).toEqual(['a1']);
  });

  it("renews an agent's live claims on heartbeat, and refuses to revive an expired one", async () => {
    const c = clock();
    const deps = memDeps(c);
    const a = await declareClaim(deps, {
      repository: 'p/r',
      agent_id: 'a1',
      patterns: ['src/**'],
      ttl: '10m',
    });
    await declareClaim(deps, { repository: 'p/s', agent_id: 'a1', patterns: ['**'], ttl: '10m' });
    c.advance(9 * 60_000);
    const renewed = await heartbeatClaims(deps, { agent_id: 'a1' });
    expect(renewed.map((x) => x.expires_at)).toEqual([
      '2026-01-01T00:19:00.000Z',
      '2026-01-01T00:19:00.000Z',
    ]);
    c.advance(9 * 60_000);
    expect((await checkClaims(deps, { repository: 'p/r', patterns: ['src/x'] })).conflicts).toHaveLength(1);
    const one = await heartbeatClaims(deps, { agent_id: 'a1', claim_id: a.claim.claim_id, ttl: '1h' });
    expect(one.map((x) => x.expires_at)).toEqual(['2026-01-01T01:18:00.000Z']);
    c.advance(2 * 60 * 60_000);
    const e = (await thrown(
      heartbeatClaims(deps, { agent_id: 'a1', claim_id: a.claim.claim_id }),
    )) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.details).toMatchObject({ rule: 'claim_live', status: 'expired' });
    expect(await heartbeatClaims(deps, { agent_id: 'a1' })).toEqual([]);
    const missing = await thrown(heartbeatClaims(deps, { agent_id: 'a1', claim_id: 'cl-nope' }));
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it('releases a claim by its owner, refuses another agent without force, and frees the paths', async () => {
    const deps = memDeps();
    const held = await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['src/**'] });
    const e = (await thrown(
      releaseClaims(deps, { claim_id: held.claim.claim_id, agent_id: 'a2' }),
    )) as RefusedError;
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.details).toMatchObject({ rule: 'owner_or_force', holder: 'a1' });
    expect(await thrown(releaseClaims(deps, { claim_id: held.claim.claim_id }))).toBeInstanceOf(
      ValidationError,
    );
    const r = await releaseClaims(deps, { claim_id: held.claim.claim_id, agent_id: 'a1' });
    expect(r.released.map((x) => [x.claim_id, x.status, x.released_by])).toEqual([
      [held.claim.claim_id, 'released', 'a1'],
    ]);
    expect((await checkClaims(deps, { repository: 'p/r', patterns: ['src/x'] })).conflicts).toEqual([]);
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['src/x'] });
    // Again: nothing live to release.
    expect(
      (await releaseClaims(deps, { claim_id: held.claim.claim_id, agent_id: 'a1' })).inactive,
    ).toHaveLength(1);
    expect(await thrown(releaseClaims(deps, { claim_id: 'cl-none', force: true }))).toBeInstanceOf(
      NotFoundError,
    );
    expect((await events(deps)).map((x) => x.kind)).toEqual([
      'ClaimDeclared',
      'ClaimReleased',
      'ClaimDeclared',
    ]);
  });

  it("releases a dead agent's claims with force, and all of an agent's claims by agent id", async () => {
    const deps = memDeps();
    const dead = await declareClaim(deps, { repository: 'p/r', agent_id: 'dead', patterns: ['a/**'] });
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['b/**'] });
    await declareClaim(deps, { repository: 'p/s', agent_id: 'a1', patterns: ['c/**'] });
    const forced = await releaseClaims(deps, { claim_id: dead.claim.claim_id, agent_id: 'ops', force: true });
    expect(forced.released[0]).toMatchObject({ agent_id: 'dead', released_by: 'ops' });
    const all = await releaseClaims(deps, { agent_id: 'a1' });
    expect(all.released.map((x) => x.repository).sort()).toEqual(['p/r', 'p/s']);
    expect(await listClaims(deps, {})).toEqual([]);
    expect((await listClaims(deps, { status: 'released' })).map((x) => x.agent_id).sort()).toEqual([
      'a1',
      'a1',
      'dead',
    ]);
    const ev = (await events(deps)).filter((x) => x.kind === 'ClaimReleased');
    expect(ev[0]!.data).toMatchObject({ agent_id: 'dead', released_by: 'ops', forced: true });
  });

  it('lists by repository, agent and status, oldest first', async () => {
    const c = clock();
    const deps = memDeps(c);
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a1', patterns: ['a'] });
    c.advance(1000);
    await declareClaim(deps, { repository: 'p/r', agent_id: 'a2', patterns: ['b'] });
    await declareClaim(deps, { repository: 'p/s', agent_id: 'a2', patterns: ['b'] });
    expect((await listClaims(deps, { repository: 'p/r' })).map((x) => x.agent_id)).toEqual(['a1', 'a2']);
    expect((await listClaims(deps, { agent_id: 'a2' })).map((x) => x.repository)).toEqual(['p/r', 'p/s']);
    expect(await listClaims(deps, { status: 'released' })).toEqual([]);
    expect(await listClaims(deps, { status: 'all' })).toHaveLength(3);
  });
});
