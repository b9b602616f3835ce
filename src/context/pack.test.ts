import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { HubError } from '../infra/index.js';
import type { RepoCard } from './card.js';
import { stampTokens } from './fit.js';
import type { WorkspaceMap } from './map.js';
import { assemblePack, type PackDigest, type PackInput } from './pack.js';
import { loadTokenCounter, serialize, type TokenCounter } from './tokens.js';

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenCounter();
});

function makeMap(rows: number, projects: number, total = rows): WorkspaceMap {
  return {
    root: '/work/ws',
    manifest: '.hub.yml',
    counts: { projects, repos: total, components: rows * 3 },
    active_project: null,
    projects: Array.from({ length: projects }, (_, i) => ({
      name: `proj-${i}`,
      repo_count: Math.ceil(rows / Math.max(1, projects)),
      description: `Project number ${i} with some words`,
      tags: { team: `t${i}` },
    })),
    repos: Array.from({ length: rows }, (_, i) => ({
      project: `proj-${i % Math.max(1, projects)}`,
      repo: `repo-${i}`,
      path: `proj-${i % Math.max(1, projects)}/repo-${i}`,
      status: i % 7 === 3 ? ('missing' as const) : ('synced' as const),
      exists: i % 7 !== 3,
      ...(i % 2 ? { tags: { lang: 'go', tier: i % 3 } } : {}),
    })),
    offset: 0,
    limit: 80,
    total,
    truncated: total > rows,
    next_offset: total > rows ? rows : null,
  };
}

function makeCard(i: number, words: number): RepoCard {
  return {
    project: 'proj-0',
    repo: `repo-${i}`,
    path: `/work/ws/proj-0/repo-${i}`,
    status: 'synced',
    exists: true,
    is_git_repo: true,
    branch: 'main',
    dirty: i % 2 === 0,
    changes: i,
    ahead: null,
    behind: null,
    head_commit_age_days: i * 3,
    last_commit: { sha: 'abcdef012345', subject: `Commit ${i} ${'word '.repeat(words)}` },
    description: 'A repository'.repeat(1 + (i % 3)),
    agent_instructions: 'Run the tests first. '.repeat(1 + (words % 4)),
    stack_hints: [{ stack: 'go', file: 'go.mod' }],
    health_flags: i % 3 ? ['no_ci'] : [],
    ci: null,
    components: Array.from({ length: 1 + (i % 4) }, (_, j) => ({
      name: `c${j}`,
      path: `svc/c${j}`,
      kind: 'service',
    })),
  };
}

function makeDigest(n: number): PackDigest {
  return {
    since: '2026-01-01T00:00:00.000Z',
    first_session: false,
    manifest_changed: false,
    active_objective_id: null,
    repo_changes: Array.from({ length: n }, (_, i) => ({
      repository: `proj-0/repo-${i}`,
      commit_count: i + 1,
      recent_subjects: [`Fix thing ${i}`, `Add other thing ${i}`],
      dirty: false,
    })),
    unchanged: 2,
  };
}

const exact = (p: object) => counter.count(serialize(p));

describe('token_estimate', () => {
  it('is the exact count of the serialized value, itself included', () => {
    for (const rows of [0, 1, 5, 30, 120]) {
      const { pack } = assemblePack(counter, {
        tier: 0,
        workspaceName: 'w',
        map: makeMap(rows, 3),
        cards: [],
        digest: null,
      });
      expect(pack.token_estimate).toBe(exact(pack));
    }
  });

  it('equals a full count for any text before the stamp, the stamp last or not', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 3000 }), fc.boolean(), (text, last) => {
        const v = last ? { text, token_estimate: 0 } : { token_estimate: 0, text };
        expect(stampTokens(counter, v)).toBe(exact(v));
        expect(v.token_estimate).toBe(exact(v));
      }),
      { numRuns: 300 },
    );
  });

  it('settles across a digit boundary of the count', () => {
    for (let pad = 0; pad < 40; pad++) {
      const v = { text: 'x '.repeat(480 + pad), token_estimate: 0 };
      expect(stampTokens(counter, v)).toBe(exact(v));
    }
  });
});

describe('--max-tokens', () => {
  const inputArb = fc.record({
    rows: fc.integer({ min: 0, max: 60 }),
    projects: fc.integer({ min: 0, max: 6 }),
    cards: fc.integer({ min: 0, max: 12 }),
    words: fc.integer({ min: 0, max: 30 }),
    digest: fc.integer({ min: -1, max: 8 }),
    extra: fc.boolean(),
    tier: fc.constantFrom(0 as const, 1 as const, 2 as const),
  });

  it('is a hard ceiling: every pack fits, or the budget is below the smallest pack', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 1, max: 8000 }), (x, budget) => {
        const input: PackInput = {
          tier: x.tier,
          workspaceName: 'generated',
          map: makeMap(x.rows, Math.min(x.projects, Math.max(1, x.rows))),
          cards: Array.from({ length: Math.min(x.cards, x.rows) }, (_, i) => makeCard(i, x.words)),
          digest: x.digest >= 0 ? makeDigest(x.digest) : null,
          sections: x.extra
            ? [
                { key: 'scope', value: { project: 'proj-0', repo: 'repo-0' } },
                {
                  key: 'component_graph',
                  value: { nodes: Array.from({ length: 20 }, (_, i) => `n${i}`) },
                  droppable: true,
                },
              ]
            : [],
          maxTokens: budget,
        };
        try {
          const { pack, tokens } = assemblePack(counter, input);
          const count = exact(pack);
          expect(count).toBe(pack.token_estimate);
          expect(tokens).toBe(count);
          expect(count).toBeLessThanOrEqual(budget);
          // Never an empty pack: the map keeps its first row, and a tier with cards keeps the first card.
          if (x.rows > 0) expect(pack.map!.repos.length).toBeGreaterThanOrEqual(1);
          if (input.cards.length > 0) expect(pack.cards.length).toBeGreaterThanOrEqual(1);
        } catch (err) {
          expect(err).toBeInstanceOf(HubError);
          const details = (err as HubError).details as { rule: string; minimum: number };
          expect(details.rule).toBe('budget_too_small');
          expect(details.minimum).toBeGreaterThan(budget);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('drops the digest first, then cards, and shrinks the map last', () => {
    const input: PackInput = {
      tier: 2,
      workspaceName: 'w',
      map: makeMap(20, 2),
      cards: Array.from({ length: 5 }, (_, i) => makeCard(i, 10)),
      digest: makeDigest(5),
    };
    const full = assemblePack(counter, input);
    expect(full.pack.dropped_sections).toEqual([]);
    expect(full.digestKept).toBe(true);

    const noSubjects = assemblePack(counter, { ...input, maxTokens: full.tokens - 5 });
    expect(noSubjects.pack.dropped_sections).toEqual(['digest.recent_subjects']);
    expect(noSubjects.digestKept).toBe(true);

    const withoutDigest = assemblePack(counter, { ...input, digest: null }).tokens;
    const cardsCut = assemblePack(counter, { ...input, maxTokens: withoutDigest - 1 });
    expect(cardsCut.digestKept).toBe(false);
    expect(cardsCut.pack.dropped_sections[0]).toBe('digest');
    expect(cardsCut.pack.dropped_sections[1]).toMatch(/^cards\[\d+:\]\.detail$/);
    expect(cardsCut.pack.map!.repos).toHaveLength(20);

    const mapOnly = assemblePack(counter, { ...input, cards: [], digest: null }).tokens;
    const mapCut = assemblePack(counter, { ...input, maxTokens: Math.floor(mapOnly / 2) });
    // The first card stays (without its detail) while the map shrinks: a tier-1 pack never loses every card.
    expect(mapCut.pack.cards.map((c) => c.repo)).toEqual(['repo-0']);
    expect(mapCut.pack.cards[0]!.readme).toBeUndefined();
    expect(mapCut.pack.dropped_sections).toContain('cards[1:]');
    expect(mapCut.pack.map!.truncated).toBe(true);
    expect(mapCut.pack.map!.next_offset).toBe(mapCut.pack.map!.repos.length);
    expect(mapCut.pack.dropped_sections.some((d) => d.startsWith('map.'))).toBe(true);
  });

  it('refuses a budget below the smallest useful pack, naming the smallest budget that works', () => {
    for (const tier of [0, 1] as const) {
      const input: PackInput = {
        tier,
        workspaceName: 'w',
        map: makeMap(20, 2),
        cards: tier === 1 ? Array.from({ length: 5 }, (_, i) => makeCard(i, 10)) : [],
        digest: null,
        maxTokens: 40,
      };
      let err: unknown;
      try {
        assemblePack(counter, input);
      } catch (e) {
        err = e;
      }
      expect(err, `tier ${tier}`).toBeInstanceOf(HubError);
      const details = (err as HubError).details as { rule: string; minimum: number };
      expect(details.rule).toBe('budget_too_small');
      expect((err as HubError).message).toContain(String(details.minimum));
      const smallest = assemblePack(counter, { ...input, maxTokens: details.minimum });
      expect(smallest.tokens).toBeLessThanOrEqual(details.minimum);
      expect(smallest.pack.map!.repos).toHaveLength(1);
      expect(smallest.pack.cards).toHaveLength(tier);
      expect(() => assemblePack(counter, { ...input, maxTokens: details.minimum - 1 })).toThrow(HubError);
    }
  });

  it('names the budget field the caller used', () => {
    const input: PackInput = {
      tier: 0,
      workspaceName: 'w',
      map: makeMap(3, 1),
      cards: [],
      digest: null,
      maxTokens: 5,
      budgetField: 'budget',
    };
    expect(() => assemblePack(counter, input)).toThrow(/^budget: 5 is below/);
  });

  it('never drops a section that is not droppable; below the minimum it says how small a pack can be', () => {
    const input: PackInput = {
      tier: 0,
      workspaceName: 'w',
      map: makeMap(3, 1),
      cards: [],
      digest: null,
      sections: [{ key: 'component', value: { id: 'p/r/c', notes: 'n '.repeat(50) } }],
      maxTokens: 30,
    };
    let err: unknown;
    try {
      assemblePack(counter, input);
    } catch (e) {
      err = e;
    }
    expect((err as HubError).details).toMatchObject({ field: 'max_tokens', rule: 'budget_too_small' });
    const min = ((err as HubError).details as { minimum: number }).minimum;
    const ok = assemblePack(counter, { ...input, maxTokens: min });
    expect(ok.pack.component).toEqual(input.sections![0]!.value);
    expect(ok.tokens).toBe(min);
  });
});
