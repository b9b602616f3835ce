import type { Automaton } from './automaton.js';
import { ANY_SET, singleChar, subtractSets } from './char-set.js';
import { compileGlob } from './compile-glob.js';
import { compiledMatches } from './glob-matches.js';
import { isRealPath } from './real-path.js';
import { globRefusal } from './refuse.js';
import { leastCommonPath } from './search.js';

/**
 * How characters with a meaning are spelled: a one-character class where picomatch reads it as a plain class (a
 * regex character inside), else a one-branch extglob. Runs of `$` or `^` as text trip picomatch's fast path (`$$`
 * becomes `\$$`, an anchor); a quote toggles its quoting and vanishes; `["-"]` is a plain class of one quote.
 */
const SPELLING: Record<string, string> = {
  '*': '[*]',
  '?': '[?]',
  '[': '[[]',
  ']': '[]]',
  '{': '[{]',
  '}': '[}]',
  '(': '[(]',
  ')': '[)]',
  '|': '[|]',
  '+': '[+]',
  $: '[$]',
  '^': '@(^)',
  '"': '["-"]',
};

/** Accepts every string except `path`: a pattern matching `path` and sharing nothing with this matches only it. */
function allBut(path: string): Automaton {
  const n = path.length;
  const diverged = n + 1;
  const edges = Array.from({ length: n + 2 }, (_, i) => {
    if (i >= n) return [{ set: ANY_SET, to: diverged }];
    const code = path.charCodeAt(i);
    return [
      { set: singleChar(code), to: i + 1 },
      { set: subtractSets(ANY_SET, singleChar(code)), to: diverged },
    ];
  });
  return { initial: [0], accept: edges.map((_, i) => i !== n), edges };
}

/**
 * A claim pattern that matches the real path `path` and no other (a component folder holding `[`, `{` or `(` must
 * not turn into a glob when a claim expands it to `<path>/**`), besides its own spelling: picomatch matches a path
 * spelled exactly like any pattern, so `a[[]b` also matches a file named `a[[]b`. Verified on the automata; when
 * no spelling works, a ValidationError with rule `not_expressible`.
 */
export function literalGlob(path: string, field = 'path'): string {
  if (typeof path !== 'string' || !isRealPath(path)) {
    throw globRefusal(field, path, 'real_path', "a path is relative, with no empty, '.' or '..' segment");
  }
  const chars = [...path];
  let pattern = '';
  chars.forEach((ch, i) => {
    // A pattern may not start or end with white space (a copy-paste slip, normalize-glob.ts); a one-branch
    // extglob spells it there, and matches that one character only.
    const edge = (i === 0 || i === chars.length - 1) && ch.trim() === '';
    pattern += edge ? `@(${ch})` : (SPELLING[ch] ?? ch);
  });
  // A leading `!` would negate the whole pattern; an extglob of one branch spells it.
  if (pattern.startsWith('!')) pattern = `@(!)${pattern.slice(1)}`;
  const refuse = () =>
    globRefusal(
      field,
      path,
      'not_expressible',
      'no claim pattern matches exactly this path and nothing else',
    );
  let compiled: ReturnType<typeof compileGlob>;
  try {
    compiled = compileGlob(pattern, field);
  } catch {
    throw refuse();
  }
  // The search sees the automaton's language only, not the spelling: it must hold no real path but `path`.
  const exact =
    compiled.pattern === pattern &&
    compiledMatches(compiled, path) &&
    leastCommonPath(compiled, allBut(path)) === undefined;
  if (!exact) throw refuse();
  return pattern;
}
