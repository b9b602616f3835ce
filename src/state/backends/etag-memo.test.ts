import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { etagOf } from '../etag.js';
import { createEtagMemo } from './etag-memo.js';
import { createLocalStore } from './local.js';

const big = (tag: string) => ({
  events: Array.from({ length: 400 }, (_, i) => ({ id: `${tag}-${i}`, n: i })),
});

describe('etag memo', () => {
  it('answers the remembered ETag for the same text, and hashes a changed text anew', () => {
    const memo = createEtagMemo(10, 2);
    const a = { a: 1, pad: 'x'.repeat(20) };
    const text = `${JSON.stringify(a)}\n`;
    memo.remember('doc', text, '"remembered"');
    // The value is not looked at when the text is the one remembered: no hashing.
    expect(memo.etagOf('doc', text, { other: true })).toBe('"remembered"');
    const b = { ...a, a: 2 };
    expect(memo.etagOf('doc', `${JSON.stringify(b)}\n`, b)).toBe(etagOf(b));
  });

  it('keeps neither small texts nor more than its bound of documents', () => {
    const memo = createEtagMemo(10, 2);
    memo.remember('small', 'tiny', '"s"');
    expect(memo.etagOf('small', 'tiny', { t: 1 })).toBe(etagOf({ t: 1 }));
    for (const n of ['one', 'two', 'three']) memo.remember(n, `${n}-${'y'.repeat(20)}`, `"${n}"`);
    expect(memo.etagOf('one', `one-${'y'.repeat(20)}`, { v: 1 })).toBe(etagOf({ v: 1 }));
    expect(memo.etagOf('three', `three-${'y'.repeat(20)}`, { v: 1 })).toBe('"three"');
  });
});

describe('local store ETags with the memo', () => {
  const root = mkdtempSync(join(tmpdir(), 'hub-etag-memo-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sees what another handle (another process) wrote, and refuses a stale If-Match', async () => {
    const dir = join(root, '.hub');
    const a = createLocalStore({ dir });
    const b = createLocalStore({ dir });
    const first = await a.write('coord.events', big('a'), '""');
    expect(first).toBe(etagOf(big('a')));
    expect((await a.read('coord.events')).etag).toBe(first);
    const second = await b.write('coord.events', big('b'), first);
    // a remembered the text it wrote; the file now holds b's: a hashes it anew.
    expect((await a.read('coord.events')).etag).toBe(second);
    await expect(a.write('coord.events', big('c'), first)).rejects.toThrow(/changed since it was read/);
    const third = await a.update!('coord.events', (cur) => ({
      value: { events: [...(cur as { events: object[] }).events, { id: 'x' }] },
      result: null,
    }));
    expect(third.etag).toBe(etagOf({ events: [...big('b').events, { id: 'x' }] }));
    expect((await b.read('coord.events')).etag).toBe(third.etag);
  });
});
