import { checkAlternatives } from './alternatives.js';
import { GLOB_LIMITS } from './options.js';
import { globRefusal } from './refuse.js';

/**
 * The textual rules of a claim pattern, and its normal form. Spelling that never changes which real path is meant
 * is normalized: a leading `./`, `.` segments and `//` go (no file path holds them); a trailing `/` means the
 * directory and everything under it (`src/` -> `src/**`). Anything whose meaning would be a guess is refused.
 * The rules hold for every alternative of its braces and groups too (alternatives.ts).
 */
export function normalizeGlob(pattern: unknown, field: string): string {
  if (typeof pattern !== 'string') {
    throw globRefusal(field, pattern, 'string', 'a glob pattern must be a string');
  }
  if (pattern.length > GLOB_LIMITS.maxLength) {
    throw globRefusal(
      field,
      pattern,
      'max_length',
      `a pattern holds at most ${GLOB_LIMITS.maxLength} characters; this one has ${pattern.length}`,
    );
  }
  if (pattern.trim() === '') throw globRefusal(field, pattern, 'not_empty', 'a pattern must name some path');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\u0000-\u001f\u007f]/.test(pattern)) {
    throw globRefusal(
      field,
      pattern,
      'no_control_chars',
      'a pattern may not hold NUL or other control characters',
    );
  }
  if (pattern !== pattern.trim()) {
    throw globRefusal(
      field,
      pattern,
      'no_surrounding_whitespace',
      'leading or trailing spaces are almost always a copy-paste slip',
    );
  }
  if (pattern.includes('\\')) {
    throw globRefusal(
      field,
      pattern,
      'no_backslash',
      "patterns use POSIX '/' separators; match a special character with a class such as [*]",
    );
  }
  if (pattern.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(pattern)) {
    throw globRefusal(
      field,
      pattern,
      'relative',
      'a pattern is relative to the repository root, never absolute',
    );
  }
  const segments = pattern.split('/');
  if (segments.includes('..')) {
    throw globRefusal(
      field,
      pattern,
      'no_parent_segments',
      "a pattern may not climb out with a '..' segment",
    );
  }
  const kept = segments.filter((s) => s !== '' && s !== '.');
  if (kept.length === 0) {
    throw globRefusal(
      field,
      pattern,
      'not_empty',
      "a pattern must name some path (use '**' for all of them)",
    );
  }
  if (pattern.endsWith('/') && kept[kept.length - 1] !== '**') kept.push('**');
  const normalized = kept.join('/');
  if (normalized.startsWith('!') && !normalized.startsWith('!(')) {
    throw globRefusal(
      field,
      pattern,
      'no_negation',
      'a claim is a positive set of paths; a leading ! (negation) is not a claim',
    );
  }
  checkBraceRanges(normalized, field, pattern);
  checkAlternatives(normalized, field, pattern);
  return normalized;
}

/**
 * picomatch 4 compiles `{x..y}` to the class `[x-y]`, which is right for one character at each end only:
 * `{1..10}` would become `[1-10]`, matching `1` and `0` and nothing else. Such ranges are refused.
 */
function checkBraceRanges(normalized: string, field: string, pattern: string): void {
  const buffers: string[] = [];
  for (const ch of normalized) {
    if (ch === '{') buffers.push('');
    else if (ch === '}' && buffers.length > 0) {
      const direct = buffers.pop()!;
      if (direct.includes('..') && !/^[^,]\.\.[^,]$/u.test(direct)) {
        throw globRefusal(
          field,
          pattern,
          'brace_range',
          `the range {${direct}} is only supported with one character at each end, as in {a..c} or {1..9}`,
        );
      }
      if (buffers.length > 0) buffers[buffers.length - 1] += '#';
    } else if (buffers.length > 0) buffers[buffers.length - 1] += ch;
  }
}
