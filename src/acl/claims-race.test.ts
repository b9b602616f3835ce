// Eight agents race to claim overlapping paths of one repository: exactly one may win, every time, on every
// backend. The control at the end runs the same race through a declaration that reads, decides and writes without
// the atomic update, and shows the harness catches the double grants.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { newId } from '../coord/index.js';
import { RefusedError, StateConflictError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { type DeclareInput, declareClaim, planDeclare } from './claims-declare.js';
import { claimsDocument } from './claims-records.js';
import { ClaimsDocSchema } from './claims-schema.js';
import { isLive } from './liveness.js';
import type { AclDeps } from './records.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const RACERS = 8;
const depsOf = (store: DocumentStore): AclDeps => ({ store, retries: 1, now: () => new Date() });

/** The declaration of racer `i` in race `r`: every racer's patterns overlap every other's. */
const racer = (r: number, i: number): DeclareInput => ({
  repository: `race/r${r}`,
  agent_id: `agent-${i}`,
  patterns: i % 2 === 0 ? ['src/**'] : [`src/${i}/*.ts`, 'docs/**'],
});

type Declare = (deps: AclDeps, input: DeclareInput) => Promise<unknown>;

/** Runs `races` races of RACERS concurrent declarations; returns how many claims each race granted. */
async function race(stores: DocumentStore[], races: number, declare: Declare): Promise<number[]> {
  const grants: number[] = [];
  for (let r = 0; r < races; r++) {
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) => declare(depsOf(stores[i % stores.length]!), racer(r, i))),
    );
    for (const o of outcomes)
      if (o.status === 'rejected' && !(o.reason instanceof RefusedError)) throw o.reason;
    const doc = ClaimsDocSchema.parse((await stores[0]!.read(claimsDocument(`race/r${r}`))).value ?? {});
    const live = doc.claims.filter((c) => isLive(c, new Date()));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(live.length);
    grants.push(live.length);
  }
  return grants;
}

/** What a declaration without the atomic update would do: read, decide, write (last writer wins). */
const nonAtomic: Declare = async (deps, input) => {
  const doc = ClaimsDocSchema.parse((await deps.store.read(claimsDocument(input.repository))).value ?? {});
  const out = planDeclare(doc, input, deps.now(), newId('cl'));
  // The decision is made; the write only keeps other claims (retrying its compare-and-swap, not the decision).
  for (;;) {
    const cur = await deps.store.read(claimsDocument(input.repository));
    const base = ClaimsDocSchema.parse(cur.value ?? {});
    base.claims.push(out.claim);
    try {
      await deps.store.write(claimsDocument(input.repository), base, cur.etag ?? '""');
      return out;
    } catch (err) {
      if (!(err instanceof StateConflictError)) throw err;
    }
  }
};

function localStores(n: number): DocumentStore[] {
  const dir = createTempDir('hub-claims-race-');
  temps.push(dir);
  return Array.from({ length: n }, () => createLocalStore({ dir: join(dir, '.hub') }));
}

describe('racing declarations leave exactly one holder', () => {
  it('on the memory backend (one store, concurrent calls)', async () => {
    const grants = await race([createMemoryStore()], 50, declareClaim);
    expect(grants.every((g) => g === 1)).toBe(true);
  });

  it('on the local backend (several store handles of one .hub/)', async () => {
    const grants = await race(localStores(4), 15, declareClaim);
    expect(grants.every((g) => g === 1)).toBe(true);
  });
});

describe('the race harness catches a declaration that is not atomic', () => {
  it('on memory', async () => {
    const grants = await race([createMemoryStore()], 5, nonAtomic);
    expect(grants.some((g) => g > 1)).toBe(true);
  });

  it('on local', async () => {
    const grants = await race(localStores(4), 5, nonAtomic);
    expect(grants.some((g) => g > 1)).toBe(true);
  });
});
