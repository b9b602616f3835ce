import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../state/index.js';
import { mergePressure, mergesDocument, readAllMerges } from './records.js';

const at = '2026-01-01T00:00:00.000Z';
const merge = (merge_id: string, repository: string, status: string) => ({
  merge_id,
  repository,
  source_branch: `agent/${merge_id}`,
  target_branch: 'main',
  status,
  created_at: at,
  updated_at: at,
});

describe('merge records', () => {
  it('counts queued and running requests by repository as pressure, and nothing else', async () => {
    const store = createMemoryStore();
    const deps = { store, retries: 1, now: () => new Date(at) };
    await store.write(
      mergesDocument('p~a'),
      {
        merges: [
          merge('m1', 'p/a', 'queued'),
          merge('m2', 'p/a', 'running'),
          merge('m3', 'p/a', 'succeeded'),
        ],
      },
      '""',
    );
    await store.write(
      mergesDocument('p~b'),
      { merges: [merge('m4', 'p/b', 'conflict'), merge('m5', 'p/b', 'queued')] },
      '""',
    );
    expect(await mergePressure(deps)).toEqual({ 'p/a': 2, 'p/b': 1 });
    expect((await readAllMerges(deps)).map((m) => m.merge_id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('has no pressure when nothing was ever enqueued', async () => {
    const deps = { store: createMemoryStore(), retries: 1, now: () => new Date(at) };
    expect(await mergePressure(deps)).toEqual({});
  });
});
