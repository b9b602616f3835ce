// Eight closers race to close one run: exactly one closes it, the others are refused naming the outcome it got,
// every time, on every backend that serializes writers itself. The control at the end closes through a plain
// read-then-write and shows the harness catches the double close.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import type { CoordDeps } from '../coord/index.js';
import { RefusedError, StateConflictError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import { closeRun, openRun } from './ledger-write.js';
import { RUN_OUTCOMES, RunDocSchema, type RunOutcome, runDocument } from './run-schema.js';

const RACERS = 8;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

const depsOf = (store: DocumentStore): CoordDeps => ({ store, retries: 1, now: () => new Date() });
const outcomeOf = (i: number): RunOutcome => RUN_OUTCOMES[i % RUN_OUTCOMES.length]!;

type Close = (deps: CoordDeps, runId: string, outcome: RunOutcome) => Promise<unknown>;

/** Runs `races` races of RACERS concurrent closers of a fresh run; returns how many closers won each race. */
async function race(stores: DocumentStore[], races: number, close: Close): Promise<number[]> {
  const wins: number[] = [];
  for (let r = 0; r < races; r++) {
    const { run } = await openRun(depsOf(stores[0]!), { actor: `opener-${r}` });
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) =>
        close(depsOf(stores[i % stores.length]!), run.run_id, outcomeOf(i)),
      ),
    );
    for (const o of outcomes)
      if (o.status === 'rejected' && !(o.reason instanceof RefusedError)) throw o.reason;
    const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
    // The stored outcome is the winner's, and every refusal names it.
    if (won.length === 1) {
      const stored = RunDocSchema.parse((await stores[0]!.read(runDocument(run.run_id))).value).run!;
      expect(stored.outcome).toBe(outcomeOf(won[0]!));
      for (const o of outcomes)
        if (o.status === 'rejected') expect((o.reason as RefusedError).details?.outcome).toBe(stored.outcome);
    }
    wins.push(won.length);
  }
  return wins;
}

const atomicClose: Close = (deps, run_id, outcome) => closeRun(deps, { run_id, outcome });

/** What a close without the atomic update would do: read, check it is open, write (last writer wins). */
const nonAtomicClose: Close = async (deps, runId, outcome) => {
  const name = runDocument(runId);
  const seen = RunDocSchema.parse((await deps.store.read(name)).value).run!;
  if (seen.status !== 'open') throw new RefusedError('closed', { outcome: seen.outcome });
  await new Promise((r) => setTimeout(r, 1));
  for (;;) {
    const cur = await deps.store.read(name);
    try {
      await deps.store.write(name, { run: { ...seen, status: 'closed', outcome } }, cur.etag ?? '""');
      return;
    } catch (err) {
      if (!(err instanceof StateConflictError)) throw err;
    }
  }
};

function localStores(n: number): DocumentStore[] {
  const dir = createTempDir('hub-runs-race-');
  temps.push(dir);
  return Array.from({ length: n }, () => createLocalStore({ dir: join(dir, '.hub') }));
}

describe('racing closers of one run: exactly one closes it', () => {
  it('on the memory backend (one store, concurrent calls)', async () => {
    expect(await race([createMemoryStore()], 40, atomicClose)).toEqual(Array(40).fill(1));
  });

  it('on the local backend (several store handles of one .hub/, as separate processes have)', async () => {
    expect(await race(localStores(4), 15, atomicClose)).toEqual(Array(15).fill(1));
  });
});

describe('the race harness catches a close that is not atomic', () => {
  it('on memory', async () => {
    expect((await race([createMemoryStore()], 5, nonAtomicClose)).some((w) => w > 1)).toBe(true);
  });

  it('on local', async () => {
    expect((await race(localStores(4), 5, nonAtomicClose)).some((w) => w > 1)).toBe(true);
  });
});
