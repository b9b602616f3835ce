import { describe, expect, it } from 'vitest';
import type { CoordDeps } from '../coord/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { createMemoryStore } from '../state/index.js';
import type { RequestClass } from './class-schema.js';
import { addClass, listClasses, readClasses, showClass } from './classes.js';
import { closeRun, openRun } from './ledger-write.js';
import { MAX_ASK_CHARS, routeQuery, tokenize } from './router.js';

const deps = (): CoordDeps => {
  let t = Date.parse('2026-08-10T12:00:00.000Z');
  return { store: createMemoryStore(), retries: 1, now: () => new Date(t++) };
};

const cls = (id: string, triggers: string[], extra: Partial<RequestClass> = {}): RequestClass => ({
  id,
  title: id,
  triggers,
  tier: 'novel',
  mutates: true,
  gates: [],
  promotion_state: 'stable',
  ...extra,
});

describe('tokenize', () => {
  it('lower-cases, splits on anything but [a-z0-9], drops stopwords and repeats', () => {
    expect(tokenize('Please FIX the login-bug in my API, fix it!')).toEqual(['fix', 'login', 'bug', 'api']);
    expect(tokenize('the a an of')).toEqual([]);
    expect(tokenize('Ünïcode naïve café')).toEqual(['n', 'code', 'na', 've', 'caf']);
  });
});

describe('routeQuery', () => {
  const classes = [
    cls('REQ-login', ['fix login bug', 'login fails']),
    cls('REQ-docs', ['update the docs', 'write documentation']),
    cls('REQ-bump', ['bump dependency version', 'upgrade dependency']),
    cls('REQ-bug', ['fix bug']),
  ];

  it('scores each class by its best trigger F1 over distinct tokens, with why and the trigger', () => {
    const r = routeQuery(classes, 'please fix the login bug');
    expect(r.ok).toBe(true);
    expect(r.matches.map((m) => [m.id, m.confidence, m.why, m.trigger])).toEqual([
      // q = {fix, login, bug}; t = {fix, login, bug}: 2*3/(3+3) = 1
      ['REQ-login', 1, 'matched:fix,login,bug', 'fix login bug'],
      // t = {fix, bug}: 2*2/(3+2) = 0.8
      ['REQ-bug', 0.8, 'matched:fix,bug', 'fix bug'],
    ]);
    expect(r.matches[0]!.class.id).toBe('REQ-login');
  });

  it('breaks ties by id and honours the limit', () => {
    const tied = [cls('b', ['deploy service']), cls('a', ['deploy app']), cls('c', ['deploy'])];
    // q = {deploy, app, service}: a and b 2*2/(3+2) = 0.8 (tied: by id), c 2*1/(3+1) = 0.5
    expect(routeQuery(tied, 'deploy app service').matches.map((m) => [m.id, m.confidence])).toEqual([
      ['a', 0.8],
      ['b', 0.8],
      ['c', 0.5],
    ]);
    expect(routeQuery(tied, 'deploy', 2).matches.map((m) => m.id)).toEqual(['c', 'a']);
  });

  it('answers ok:false with a hint to add a class when nothing matches', () => {
    const r = routeQuery(classes, 'rotate the certificates');
    expect(r).toMatchObject({ ok: false, count: 0, matches: [] });
    expect(r.hint).toContain('hub route add');
    expect(r.hint).toContain('rotate certificates');
    expect(routeQuery(classes, 'the of !!').hint).toContain('no words');
    expect(routeQuery([], 'fix bug').ok).toBe(false);
  });

  it('refuses an ask longer than the limit', () => {
    expect(() => routeQuery(classes, 'x '.repeat(MAX_ASK_CHARS))).toThrow(/at most 4096/);
  });
});

describe('request classes', () => {
  it('adds, refuses duplicates, updates with --update keeping evidence, lists and shows with runs', async () => {
    const d = deps();
    const { class: made, created } = await addClass(d, {
      id: 'REQ-docs',
      title: 'Docs',
      triggers: [' update docs ', 'update docs', 'write documentation'],
      lane: 'docs',
      mutates: false,
    });
    expect(created).toBe(true);
    expect(made).toMatchObject({
      triggers: ['update docs', 'write documentation'],
      tier: 'novel',
      mutates: false,
      promotion_state: 'stable',
    });
    await expect(addClass(d, { id: 'REQ-docs', title: 'x', triggers: ['x'] })).rejects.toMatchObject({
      code: 'refused',
      httpStatus: 409,
      details: { rule: 'class_exists' },
    });
    await expect(addClass(d, { id: 'REQ-dox', tier: 'skilled' }, { update: true })).rejects.toMatchObject({
      code: 'not_found',
      details: { suggestions: ['REQ-docs'] },
    });
    const up = await addClass(
      d,
      { id: 'REQ-docs', tier: 'skilled', executor: 'make docs' },
      { update: true },
    );
    expect(up).toMatchObject({
      created: false,
      class: { tier: 'skilled', lane: 'docs', executor: 'make docs' },
    });
    await addClass(d, { id: 'REQ-bump', title: 'Bump', triggers: ['bump deps'] });
    expect((await listClasses(d)).count).toBe(2);
    expect((await listClasses(d, { tier: 'skilled' })).classes.map((c) => c.id)).toEqual(['REQ-docs']);
    const { run } = await openRun(d, { actor: 'a', class: 'REQ-docs' });
    await closeRun(d, { run_id: run.run_id, outcome: 'landed' });
    const shown = await showClass(d, 'REQ-docs');
    expect(shown).toMatchObject({ run_count: 1, runs: [{ run_id: run.run_id, outcome: 'landed' }] });
    await expect(showClass(d, 'REQ-doc')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses classes that could never route or that are too big', async () => {
    const d = deps();
    await expect(addClass(d, { id: 'x', title: 'x', triggers: [] })).rejects.toMatchObject({
      details: { field: 'trigger' },
    });
    await expect(addClass(d, { id: 'x', title: 'x', triggers: ['the of'] })).rejects.toMatchObject({
      details: { rule: 'has_tokens' },
    });
    await expect(
      addClass(d, { id: 'x', title: 'x', triggers: Array.from({ length: 33 }, (_, i) => `t${i}`) }),
    ).rejects.toMatchObject({ details: { field: 'trigger' } });
    await expect(addClass(d, { id: 'x', title: 'x', triggers: ['y'.repeat(201)] })).rejects.toMatchObject({
      details: { field: 'trigger' },
    });
    await expect(addClass(d, { id: '../x', title: 'x', triggers: ['y'] })).rejects.toMatchObject({
      details: { field: 'id' },
    });
    await expect(addClass(d, { id: 'x', title: 'x', triggers: ['y'], lane: 'a b' })).rejects.toMatchObject({
      details: { field: 'lane' },
    });
    expect(await readClasses(d)).toEqual([]);
  });

  it('records RequestClassAdded and RequestClassUpdated with source run', async () => {
    const d = deps();
    await addClass(d, { id: 'c1', title: 'C', triggers: ['c'] });
    await addClass(d, { id: 'c1', notes: 'n' }, { update: true });
    const events = await readRecordedEvents(d.store);
    expect(events.map((e) => [e.source, e.kind, e.subject])).toEqual([
      ['run', 'RequestClassAdded', 'c1'],
      ['run', 'RequestClassUpdated', 'c1'],
    ]);
  });
});
