import { describe, expect, it } from 'vitest';
import { createMemoryStore, type DocumentStore, updateDocument } from '../state/index.js';
import { screenedStore } from './screened-store.js';

const deep = (levels: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

describe('screenedStore', () => {
  it('keeps every capability of the store it wraps', () => {
    const inner: DocumentStore = {
      ...createMemoryStore(),
      callRoute: async () => ({ found: false, status: 404 }),
      version: () => 'v',
    };
    const screened = screenedStore(inner, () => {});
    // A dropped capability silently turns queued writers back into conflicting ones (update) or stops the http
    // backend from sending granular writes to the server (callRoute).
    for (const key of Object.keys(inner) as Array<keyof DocumentStore>)
      expect(typeof screened[key], key).toBe(typeof inner[key]);
  });

  it('quarantines an over-deep record inside an atomic update as it does on read', async () => {
    const inner = createMemoryStore();
    await inner.write('handoffs', { handoffs: [{ id: 'ok' }, { id: 'bad', payload: deep(200) }] }, '""');
    const lines: string[] = [];
    const store = screenedStore(inner, (l) => lines.push(l));
    const { value } = await updateDocument<{ handoffs: Array<Record<string, unknown>> }, void>(
      store,
      'handoffs',
      (cur) => ({ value: cur!, result: undefined }),
      { retries: 0 },
    );
    expect(value.handoffs.map((h) => h.id)).toEqual(['ok', 'bad']);
    expect(value.handoffs[1]).not.toHaveProperty('payload');
    expect(value.handoffs[1]).toHaveProperty('quarantined.dropped', ['payload']);
    expect(lines.join('\n')).toContain("state document 'handoffs'");
  });
});
