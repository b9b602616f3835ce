import { describe, expect, it } from 'vitest';
import type { CoordDeps } from '../coord/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { createMemoryStore } from '../state/index.js';
import {
  conditionHolds,
  decidePolicy,
  evaluatePolicy,
  listPolicies,
  parsePolicy,
  setPolicy,
  showPolicy,
} from './policies.js';

const deps = (): CoordDeps => ({
  store: createMemoryStore(),
  retries: 1,
  now: () => new Date('2026-08-10T12:00:00Z'),
});

const MERGE = {
  description: 'Who may land what',
  rules: [
    {
      when: { branch: { glob: 'release/**' } },
      effect: 'require_approval',
      reason: 'release branches need a person',
    },
    { when: { tier: 'novel', class: ['REQ-infra', 'REQ-db'] }, effect: 'deny', reason: 'novel infra work' },
    { when: { 'gates.failed': { gte: 1 } }, effect: 'deny', reason: 'a gate failed' },
    { when: { tier: ['deterministic', 'skilled'] }, effect: 'allow', reason: 'trusted lane' },
  ],
  default: 'deny',
};

describe('conditionHolds', () => {
  it('compares strictly: scalars equal, lists contain, operators all hold, missing fields meet only exists:false', () => {
    expect(conditionHolds('a', 'a')).toBe(true);
    expect(conditionHolds(5, '5')).toBe(false);
    expect(conditionHolds(['a', 'b'], 'b')).toBe(true);
    expect(conditionHolds(['a', 'b'], undefined)).toBe(false);
    expect(conditionHolds({ gte: 2, lt: 5 }, 4)).toBe(true);
    expect(conditionHolds({ gte: 2, lt: 5 }, 5)).toBe(false);
    expect(conditionHolds({ gte: 2 }, '3')).toBe(false);
    expect(conditionHolds({ ne: 'main' }, 'dev')).toBe(true);
    expect(conditionHolds({ ne: 'main' }, undefined)).toBe(false);
    expect(conditionHolds({ not_in: ['x'] }, 'y')).toBe(true);
    expect(conditionHolds({ exists: false }, undefined)).toBe(true);
    expect(conditionHolds({ exists: false }, null)).toBe(true);
    expect(conditionHolds({ exists: true }, 0)).toBe(true);
    expect(conditionHolds({ glob: 'release/**' }, 'release/1.2/hotfix')).toBe(true);
    expect(conditionHolds({ glob: 'release/**' }, 'main')).toBe(false);
    expect(conditionHolds({ glob: '**' }, 'x'.repeat(5000))).toBe(false);
    expect(conditionHolds('a', ['a'])).toBe(false);
  });
});

describe('decidePolicy (first match)', () => {
  const policy = parsePolicy('merge', MERGE);

  it.each([
    [{ branch: 'release/2.0', tier: 'deterministic' }, 'require_approval', 0],
    [{ branch: 'agent/x', tier: 'novel', class: 'REQ-db' }, 'deny', 1],
    [{ tier: 'skilled', gates: { failed: 2 } }, 'deny', 2],
    [{ tier: 'skilled', gates: { failed: 0 } }, 'allow', 3],
    [{ tier: 'novel', class: 'REQ-docs' }, 'deny', null],
    [{}, 'deny', null],
  ])('%j -> %s (rule %s)', (input, decision, index) => {
    expect(decidePolicy(policy, input)).toMatchObject({ policy: 'merge', decision, rule_index: index });
  });

  it('says why: the rule reason, or that the default decided', () => {
    expect(decidePolicy(policy, { branch: 'release/x' }).reason).toBe('release branches need a person');
    expect(decidePolicy(policy, {}).reason).toBe("no rule matched; the policy's default is deny");
    expect(decidePolicy(parsePolicy('open', { rules: [], default: 'allow' }), {}).decision).toBe('allow');
    expect(decidePolicy(parsePolicy('empty', { rules: [{ effect: 'allow' }] }), { x: 1 })).toMatchObject({
      decision: 'allow',
      rule_index: 0,
      reason: 'rule 0',
    });
  });
});

describe('policy storage', () => {
  it('sets, replaces, lists, shows and evaluates named policies; PolicySet events', async () => {
    const d = deps();
    expect((await setPolicy(d, { name: 'merge', ...MERGE } as never)).created).toBe(true);
    expect((await setPolicy(d, { name: 'adopt', rules: [] })).policy.default).toBe('deny');
    expect((await setPolicy(d, { name: 'merge', rules: [{ when: {}, effect: 'allow' }] })).created).toBe(
      false,
    );
    expect(await listPolicies(d)).toEqual({
      count: 2,
      policies: [
        { name: 'adopt', rules: 0, default: 'deny' },
        { name: 'merge', rules: 1, default: 'deny' },
      ],
    });
    expect((await showPolicy(d, 'merge')).policy.rules).toHaveLength(1);
    expect(await evaluatePolicy(d, 'merge', { tier: 'novel' })).toMatchObject({
      decision: 'allow',
      rule_index: 0,
    });
    await expect(evaluatePolicy(d, 'merg', {})).rejects.toMatchObject({
      code: 'not_found',
      details: { suggestions: ['merge'] },
    });
    const kinds = await readRecordedEvents(d.store);
    expect(kinds.map((e) => `${e.source}:${e.kind}`)).toEqual([
      'run:PolicySet',
      'run:PolicySet',
      'run:PolicySet',
    ]);
  });

  it('refuses malformed policies whole, naming where', async () => {
    const d = deps();
    const bad = async (rules: unknown, where: string) =>
      expect(setPolicy(d, { name: 'p', rules })).rejects.toMatchObject({
        code: 'validation',
        details: { field: expect.stringContaining(where) },
      });
    await bad('nope', 'rules');
    await bad([{ when: {}, effect: 'maybe' }], 'rules.0.effect');
    await bad([{ when: { tier: { between: [1, 2] } }, effect: 'deny' }], 'rules.0.when.tier');
    await bad([{ when: { tier: {} }, effect: 'deny' }], 'rules.0.when.tier');
    await bad([{ when: { 'a..b': 1 }, effect: 'deny' }], 'rules.0.when');
    await bad([{ when: { x: 1 }, effect: 'deny', extra: true }], 'rules.0');
    await bad(
      Array.from({ length: 201 }, () => ({ effect: 'allow' })),
      'rules',
    );
    await expect(setPolicy(d, { name: 'Bad Name', rules: [] })).rejects.toMatchObject({
      details: { field: 'name' },
    });
    expect((await listPolicies(d)).count).toBe(0);
  });
});
