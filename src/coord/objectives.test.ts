import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { createLocalStore, createMemoryStore, type DocumentStore } from '../state/index.js';
import {
  type CoordDeps,
  editObjective,
  formatNoteLines,
  listObjectives,
  normalizeRepoRef,
  objectivePatch,
  rankObjectives,
  resumeObjective,
  upsertObjective,
} from './index.js';

const temps: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hub-coord-'));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A clock the test moves by hand. */
function clock(start = '2026-03-01T10:00:00.000Z') {
  let t = Date.parse(start);
  return { now: () => new Date(t), tick: (ms = 1000) => (t += ms) };
}

const BACKENDS: Array<[string, () => { store: DocumentStore; dir?: string }]> = [
  ['memory', () => ({ store: createMemoryStore() })],
  [
    'local',
    () => {
      const dir = join(tempDir(), '.hub');
      return { store: createLocalStore({ dir }), dir };
    },
  ],
];

describe.each(BACKENDS)('objectives on the %s store', (_name, make) => {
  const setup = () => {
    const { store, dir } = make();
    const c = clock();
    const deps: CoordDeps = { store, retries: 1, now: c.now };
    return { deps, c, dir, root: '/ws' };
  };

  it('creates with defaults and merges into the same id (title and repos then optional)', async () => {
    const { deps, c, root, dir } = setup();
    const a = await upsertObjective(
      deps,
      { id: 'auth', title: '  Ship auth  ', repos: ['platform/identity'], notes: { left_off: 'tests' } },
      { root },
    );
    expect(a.created).toBe(true);
    expect(a.objective).toMatchObject({
      id: 'auth',
      title: 'Ship auth',
      status: 'pending',
      repos: ['platform/identity'],
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
      agent_notes: '[2026-03-01T10:00:00.000Z] left off: tests',
    });
    c.tick(60_000);
    const b = await upsertObjective(
      deps,
      {
        id: 'auth',
        status: 'in_progress',
        repos: ['/ws/web', 'platform/identity'],
        notes: { next: 'review' },
      },
      { root },
    );
    expect(b.created).toBe(false);
    expect(b.objective).toMatchObject({
      title: 'Ship auth',
      status: 'in_progress',
      repos: ['platform/identity', './web'],
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:01:00.000Z',
      agent_notes: '[2026-03-01T10:00:00.000Z] left off: tests\n[2026-03-01T10:01:00.000Z] next: review',
    });
    expect(await listObjectives(deps)).toHaveLength(1);
    if (dir) {
      const onDisk = JSON.parse(readFileSync(join(dir, 'objectives.json'), 'utf8'));
      expect(onDisk.objectives[0].id).toBe('auth');
    }
  });

  it('requires a title on create and derives the id from it when absent', async () => {
    const { deps, root } = setup();
    await expect(upsertObjective(deps, { id: 'x' }, { root })).rejects.toThrow(/title: required/);
    await expect(upsertObjective(deps, {}, { root })).rejects.toBeInstanceOf(ValidationError);
    const r = await upsertObjective(deps, { title: 'Fix the Login flow!' }, { root });
    expect(r.objective.id).toBe('fix-the-login-flow');
    await expect(upsertObjective(deps, { id: 'bad id', title: 't' }, { root })).rejects.toThrow(/A-Za-z0-9/);
  });

  it('rejects an unknown status with the allowed list', async () => {
    const { deps, root } = setup();
    await expect(upsertObjective(deps, { id: 'a', title: 't', status: 'doing' }, { root })).rejects.toThrow(
      "status: 'doing' is not an objective status; allowed: pending, in_progress, blocked, done, cancelled",
    );
  });

  it('edits only the editable fields; repos are replaced and normalized', async () => {
    const { deps, c, root } = setup();
    await upsertObjective(deps, { id: 'a', title: 't', repos: ['p/r'] }, { root });
    c.tick();
    const o = await editObjective(deps, 'a', { repos: '/ws/x, q/s', status: 'blocked' }, root);
    expect(o).toMatchObject({
      repos: ['./x', 'q/s'],
      status: 'blocked',
      updated_at: '2026-03-01T10:00:01.000Z',
    });
    expect((await editObjective(deps, 'a', { repos: '["a/b"]' }, root)).repos).toEqual(['a/b']);
    await expect(editObjective(deps, 'a', { mr_url: 'x' }, root)).rejects.toThrow(
      "field 'mr_url' cannot be edited; editable fields: title, status, repos, acceptance, human_notes, agent_notes",
    );
    await expect(editObjective(deps, 'a', { title: '  ' }, root)).rejects.toThrow(/title/);
    await expect(editObjective(deps, 'nope', { title: 'x' }, root)).rejects.toBeInstanceOf(NotFoundError);
    await expect(editObjective(deps, 'a', {}, root)).rejects.toThrow(/nothing to edit/);
  });

  it('keeps fields it does not know when merging (documents written by other tools)', async () => {
    const { deps, root } = setup();
    await deps.store.write(
      'objectives',
      {
        objectives: [
          { id: 'a', title: 't', status: 'pending', repos: [], created_at: 'x', updated_at: 'x', extra: 1 },
        ],
      },
      '""',
    );
    const r = await upsertObjective(deps, { id: 'a', acceptance: 'done when green' }, { root });
    expect(r.objective).toMatchObject({ extra: 1, acceptance: 'done when green' });
  });

  it('resumes in_progress first, then the most recently updated, with a substring filter', async () => {
    const { deps, c, root } = setup();
    await upsertObjective(deps, { id: 'old-active', title: 'Old', status: 'in_progress' }, { root });
    c.tick();
    await upsertObjective(deps, { id: 'newer', title: 'Newer pending', repos: ['shop/web'] }, { root });
    c.tick();
    await upsertObjective(
      deps,
      { id: 'newest', title: 'Newest', notes: { blockers: 'waiting on billing' } },
      { root },
    );
    expect((await resumeObjective(deps)).objective?.id).toBe('old-active');
    expect((await resumeObjective(deps, 'SHOP/')).objective?.id).toBe('newer');
    expect((await resumeObjective(deps, 'billing')).objective?.id).toBe('newest');
    expect((await resumeObjective(deps, 'nothing-like-this')).objective).toBeNull();
    expect((await resumeObjective(deps)).ranked.map((o) => o.id)).toEqual(['old-active', 'newest', 'newer']);
  });

  it('loses no update when writers interleave (compare-and-swap with retries)', async () => {
    const { deps, root } = setup();
    const many = { ...deps, retries: 50 };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => upsertObjective(many, { id: `o${i}`, title: `T${i}` }, { root })),
    );
    expect((await listObjectives(deps)).map((o) => o.id).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `o${i}`).sort(),
    );
  });
});

describe('repo references', () => {
  it('turns absolute in-workspace paths into ./relative and keeps the rest', () => {
    expect(normalizeRepoRef('/ws', '/ws/platform/identity/')).toBe('./platform/identity');
    expect(normalizeRepoRef('/ws', '/ws')).toBe('.');
    expect(normalizeRepoRef('/ws', '/elsewhere/repo')).toBe('/elsewhere/repo');
    expect(normalizeRepoRef('/ws', '/wsx/repo')).toBe('/wsx/repo');
    expect(normalizeRepoRef('/ws', ' platform/identity ')).toBe('platform/identity');
    expect(normalizeRepoRef('/ws', './web')).toBe('./web');
    expect(() => normalizeRepoRef('/ws', '  ')).toThrow(/empty/);
  });

  it('sees through a symlinked workspace root', () => {
    const real = tempDir();
    mkdirSync(join(real, 'svc'));
    const link = join(tempDir(), 'link');
    symlinkSync(real, link);
    expect(normalizeRepoRef(link, join(real, 'svc'))).toBe('./svc');
    expect(normalizeRepoRef(real, join(link, 'svc'))).toBe('./svc');
  });
});

describe('quick notes', () => {
  it('formats dated lines with indented continuation lines, skipping empty notes', () => {
    const at = new Date('2026-03-01T10:00:00.000Z');
    expect(
      formatNoteLines(at, { left_off: 'a', next: ' ', blockers: 'b', notes_file: 'line1\nline2\n' }),
    ).toEqual([
      '[2026-03-01T10:00:00.000Z] left off: a',
      '[2026-03-01T10:00:00.000Z] blockers: b',
      '[2026-03-01T10:00:00.000Z] notes: line1\n  line2',
    ]);
  });

  it('ranks ties by id so the pick is stable', () => {
    const o = (id: string) => ({
      id,
      title: id,
      status: 'pending' as const,
      repos: [],
      created_at: 't',
      updated_at: '2026-01-01T00:00:00Z',
    });
    expect(rankObjectives([o('b'), o('a')]).objective?.id).toBe('a');
  });
});

describe('repos given as text', () => {
  it('refuses a JSON list nested deeper than anything can print, echoing only the start of the text', () => {
    const text = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    let err: unknown;
    try {
      objectivePatch({ repos: text }, '/w');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const details = (err as ValidationError).details!;
    expect(details).toMatchObject({ field: 'repos', rule: 'string_list' });
    expect(JSON.stringify(details).length).toBeLessThan(300);
  });
});
