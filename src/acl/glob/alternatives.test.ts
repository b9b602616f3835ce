import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../infra/index.js';
import { checkAlternatives } from './alternatives.js';

/** A pattern built from braces and groups, with every string it spells (the model the check must agree with). */
interface Built {
  text: string;
  spells: string[];
}

const chars = fc.constantFrom('a', 'b', '.', '/', 'C', ':');
const literal = fc.array(chars, { minLength: 1, maxLength: 3 }).map((cs): Built => {
  const text = cs.join('');
  return { text, spells: [text] };
});

const { node } = fc.letrec<{ node: Built; seq: Built }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    literal,
    // A brace of 2 or 3 options, and a group (a|b), @(a|b) or ?(a|b).
    fc
      .tuple(fc.array(tie('seq'), { minLength: 2, maxLength: 3 }), fc.constantFrom('{', '(', '@(', '?('))
      .map(([options, open]): Built => {
        const sep = open === '{' ? ',' : '|';
        const close = open === '{' ? '}' : ')';
        const spells = options.flatMap((o) => o.spells);
        return {
          text: `${open}${options.map((o) => o.text).join(sep)}${close}`,
          spells: open === '?(' ? ['', ...spells] : spells,
        };
      }),
  ),
  seq: fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((parts): Built => {
    let spells = [''];
    for (const p of parts) spells = spells.flatMap((h) => p.spells.map((t) => h + t));
    return { text: parts.map((p) => p.text).join(''), spells };
  }),
}));

/** The rule a spelled string breaks, as a plain pattern's rules say. */
function plainRule(e: string): string | undefined {
  if (e.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(e)) return 'relative';
  if (e.split('/').includes('..')) return 'no_parent_segments';
  return undefined;
}

function refusedRule(pattern: string): string | undefined {
  try {
    checkAlternatives(pattern, 'pattern', pattern);
    return undefined;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return (err.details as { rule: string }).rule;
  }
}

describe('checkAlternatives', () => {
  it('refuses exactly the patterns one of whose spellings breaks a plain rule (property)', () => {
    fc.assert(
      fc.property(node, (built) => {
        // `{..,x}` is a picomatch range and `{a}` literal braces: the model spells neither, so leave them out.
        fc.pre(!/\{[^{}]*\.\.[^{}]*\}/.test(built.text));
        // Without a brace or group it is a plain pattern, which normalizeGlob's own rules judge.
        fc.pre(/[{(]/.test(built.text));
        const rules = built.spells.map(plainRule);
        const expected = rules.includes('relative')
          ? 'relative'
          : rules.includes('no_parent_segments')
            ? 'no_parent_segments'
            : undefined;
        expect(refusedRule(built.text), `${built.text} spells ${JSON.stringify(built.spells)}`).toBe(
          expected,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('sees through repetition: any number of copies', () => {
    expect(refusedRule('+(C|:|/)x')).toBe('relative');
    expect(refusedRule('a/*(.)/b')).toBe('no_parent_segments');
    expect(refusedRule('+(+(+(+(+(a|b)))))/**')).toBeUndefined();
  });
});
