import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import {
  branchNameProblem,
  checkAllowedPrefix,
  checkBranchName,
  MAX_BRANCH_NAME_BYTES,
  nameFromPattern,
  slugOf,
} from './branches-names.js';
import { checkTaskId } from './liveness.js';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

/** What git itself says (the property test's oracle). */
const gitAccepts = (name: string): boolean =>
  spawnSync('git', ['check-ref-format', '--branch', name], { encoding: 'utf8' }).status === 0;

describe('branch names (git check-ref-format --branch, checked in code)', () => {
  const refused = [
    '',
    '-x',
    '--name=-x',
    'agent/../x',
    'agent/a..b',
    'agent/a b',
    'agent/a\tb',
    'agent/a\u0000b',
    'agent/a\u007fb',
    'agent/a\u202eb',
    'agent/a\u200bb',
    'agent/a\u00a0b',
    'agent/x.lock',
    'agent/x.lock/y',
    'agent/.x',
    'agent//x',
    '/agent/x',
    'agent/x/',
    'agent/x.',
    'agent/a@{1}',
    '@',
    'HEAD',
    'agent/a~1',
    'agent/a^',
    'agent/a:b',
    'agent/a?',
    'agent/a*',
    'agent/a[b',
    'agent/a\\b',
    `agent/${'x'.repeat(10 * 1024)}`,
  ];
  it.each(refused.map((n) => [JSON.stringify(n).slice(0, 40), n]))('refuses %s', (_shown, name) => {
    const e = thrown(() => checkBranchName(name));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).details).toMatchObject({
      field: 'name',
      rule: 'git check-ref-format --branch',
    });
    expect((e as ValidationError).message).toMatch(/^name: '.*' is not a valid branch name: /s);
  });

  it('takes ordinary names, and a 10 KB name is not echoed whole', () => {
    for (const ok of ['agent/t-1', 'agent/T_1.2/x', 'agent/tâche', 'bot/a-b_c'])
      expect(branchNameProblem(ok), ok).toBeUndefined();
    const long = `agent/${'x'.repeat(10 * 1024)}`;
    const e = thrown(() => checkBranchName(long)) as ValidationError;
    expect(e.message.length).toBeLessThan(400);
    expect(branchNameProblem('a'.repeat(MAX_BRANCH_NAME_BYTES))).toBeUndefined();
    expect(branchNameProblem('é'.repeat(MAX_BRANCH_NAME_BYTES / 2 + 1))).toMatch(/longer than/);
  });

  it('never accepts a name git refuses (fast-check against git check-ref-format --branch)', () => {
    const alphabet = fc.constantFrom(...'ab/.-_@{}~^:?*[\\ \t\u0000lockHED'.split(''), '.lock', '..', '@{');
    fc.assert(
      fc.property(fc.array(alphabet, { minLength: 1, maxLength: 12 }), (parts) => {
        const name = parts.join('');
        if (branchNameProblem(name) === undefined) expect(gitAccepts(name), name).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a name outside the allowed prefixes, naming them', () => {
    expect(checkAllowedPrefix('bot/x', ['agent/', 'bot/'])).toBe('bot/x');
    const e = thrown(() => checkAllowedPrefix('main', ['agent/'])) as ValidationError;
    expect(e.details).toMatchObject({
      field: 'name',
      value: 'main',
      rule: 'coordination.allowed_branch_prefixes',
      allowed: ['agent/'],
    });
  });
});

describe('task ids', () => {
  it('are checked as given (never trimmed), bounded and free of control characters', () => {
    expect(checkTaskId('T-1')).toBe('T-1');
    expect(thrown(() => checkTaskId('  T-1 '))).toMatchObject({
      details: { field: 'task_id', rule: 'no_surrounding_whitespace' },
    });
    for (const bad of ['', '   ', 'a\u0000b', 'x'.repeat(129), 'T-1\n', 'T-1\u2028'])
      expect(
        thrown(() => checkTaskId(bad)),
        JSON.stringify(bad),
      ).toBeInstanceOf(ValidationError);
  });
});

describe('slugOf (the earlier product rule)', () => {
  it.each([
    ['Fix the Login bug', 'fix-the-login-bug'],
    ['  --a__b  c--  ', 'a-b-c'],
    ['émoji 🎉 & dots.v2', 'moji-dotsv2'],
    ['x'.repeat(60), 'x'.repeat(48)],
    [`${'a'.repeat(47)} b`, 'a'.repeat(47)],
    ['!!!', ''],
  ])('%s -> %s', (text, slug) => {
    expect(slugOf(text)).toBe(slug);
  });
});

describe('nameFromPattern', () => {
  const pattern = 'agent/{task_id}[-{slug}]';
  it('fills placeholders and drops an optional part whose placeholder is empty', () => {
    expect(nameFromPattern(pattern, { task_id: 'T-1', slug: 'fix-login' })).toBe('agent/T-1-fix-login');
    expect(nameFromPattern(pattern, { task_id: 'T-1', slug: '' })).toBe('agent/T-1');
    expect(nameFromPattern('bot/{agent_id}/{task_id}', { task_id: 't', agent_id: 'a7' })).toBe('bot/a7/t');
  });

  it('names the input a required placeholder needs', () => {
    const e = thrown(() => nameFromPattern('agent/{task_id}-{slug}', { task_id: 't' })) as ValidationError;
    expect(e.details).toMatchObject({ field: 'description' });
  });

  it.each(['agent/{task}', 'agent/[{task_id}', 'agent/{task_id}]', 'agent/[[{slug}]]', 'agent/{task_id'])(
    'refuses the pattern %s naming coordination.branch_pattern',
    (bad) => {
      const e = thrown(() => nameFromPattern(bad, { task_id: 't', slug: 's' })) as ValidationError;
      expect(e, bad).toBeInstanceOf(ValidationError);
      expect(e.details).toMatchObject({ field: 'coordination.branch_pattern', value: bad });
    },
  );
});
