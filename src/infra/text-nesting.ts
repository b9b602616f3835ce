/**
 * Nesting of structured text (JSON, JSONC, TOML) measured before a parser sees it. jsonc-parser and toml-patch
 * parse nested arrays and tables by recursion and overflow the stack a few thousand levels down (toml-patch runs
 * out of memory on a dotted key of 100,000 parts), and what they build is walked recursively again (deep
 * comparison, plain copies). Files a clone ships and files in a user's home are hostile input: each is measured
 * here, in one iterative pass that knows strings and comments exactly as the parser reads them, and refused past
 * the limit. The count may exceed the parser's own depth on broken text, never fall short of it.
 */

/** Levels of nested arrays, tables and dotted-key parts a configuration file may use: the YAML limit's figure. */
export const MAX_FILE_NESTING = 128;

/** Dotted-key parts one TOML file may hold: toml-patch spends tens of microseconds on each. */
export const MAX_TOML_KEY_PARTS = 50_000;

/** Where a text first breaks a bound (1-based line and column): nesting (`max_depth`) or TOML key parts. */
export interface NestingViolation {
  rule: 'max_depth' | 'max_key_parts';
  limit: number;
  line: number;
  column: number;
}

/** `nests deeper than the limit of 128 levels at line 1, column 129 (max_depth)`. */
export function nestingMessage(v: NestingViolation): string {
  const what =
    v.rule === 'max_depth'
      ? `nests deeper than the limit of ${v.limit} levels`
      : `holds more than ${v.limit} dotted-key parts`;
  return `${what} at line ${v.line}, column ${v.column} (${v.rule})`;
}

function violationAt(
  text: string,
  offset: number,
  limit: number,
  rule: NestingViolation['rule'] = 'max_depth',
): NestingViolation {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { rule, limit, line, column: offset - start + 1 };
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const SLASH = 47;
const STAR = 42;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * JSON and JSON with comments, read as jsonc-parser reads them: a string ends at its closing quote or at a line
 * break (a backslash takes the next character, whatever it is), `//` runs to the line's end, `/*` to the next
 * `*\/`. Brackets and braces count; a closer that does not match the innermost opener is not counted, since the
 * parser skips it and could then nest deeper than a count it lowered.
 */
export function jsonNestingViolation(text: string, limit = MAX_FILE_NESTING): NestingViolation | undefined {
  const n = text.length;
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i += 2;
        else if (d === QUOTE || d === LF || d === CR) break;
        else i++;
      }
    } else if (c === SLASH) {
      const d = text.charCodeAt(i + 1);
      if (d === SLASH) {
        while (i + 1 < n && text.charCodeAt(i + 1) !== LF && text.charCodeAt(i + 1) !== CR) i++;
      } else if (d === STAR) {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 1;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      stack.push(c);
      if (stack.length > limit) return violationAt(text, i, limit);
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      if (stack[stack.length - 1] === (c === CLOSE_BRACKET ? OPEN_BRACKET : OPEN_BRACE)) stack.pop();
    }
  }
  return undefined;
}

/** Characters that end a bare TOML token (toml-patch's tokenizer). */
function endsBareToken(c: number): boolean {
  // space, tab, LF, CR, `,`, `.`, `]`, `}`, `=`, `#`
  return (
    c === 32 ||
    c === 9 ||
    c === LF ||
    c === CR ||
    c === 44 ||
    c === 46 ||
    c === 93 ||
    c === 125 ||
    c === 61 ||
    c === 35
  );
}

/** Backslashes right before `at`. */
function backslashesBefore(text: string, at: number): number {
  let k = 0;
  while (at - 1 - k >= 0 && text.charCodeAt(at - 1 - k) === BACKSLASH) k++;
  return k;
}

/** Index of the last character of a multi-line string opened at `start` (`"""` or `'''`), or the text's end. */
function multilineEnd(text: string, start: number, quote: string): number {
  const triple = quote.repeat(3);
  let from = start + 3;
  for (;;) {
    const at = text.indexOf(triple, from);
    if (at < 0) return text.length;
    if (quote === "'" || backslashesBefore(text, at) % 2 === 0) {
      let end = at + 3;
      while (text[end] === quote) end++;
      return end - 1;
    }
    from = at + 1;
  }
}

/**
 * Index of the last character of a bare or quoted token starting at `start`: quotes toggle a string anywhere in
 * it, a backslash in a basic string escapes a quote or a backslash, and outside a string it ends before a space,
 * a line break or one of `,.]}=#`. A line break inside a string ends it here (the parser refuses it there).
 */
function tokenEnd(text: string, start: number): number {
  const n = text.length;
  let r = start;
  let basic = text.charCodeAt(r) === QUOTE;
  let literal = text.charCodeAt(r) === APOSTROPHE;
  while (r + 1 < n) {
    const next = text.charCodeAt(r + 1);
    if (!basic && !literal && endsBareToken(next)) break;
    if ((basic || literal) && (next === LF || next === CR)) break;
    r++;
    const c = text.charCodeAt(r);
    if (c === QUOTE && !literal) basic = !basic;
    if (c === APOSTROPHE && !basic) literal = !literal;
    if (basic && c === BACKSLASH) {
      const d = text.charCodeAt(r + 1);
      if (d === QUOTE || d === BACKSLASH) r++;
    }
  }
  return r;
}

interface TomlFrame {
  opener: number;
  /** Dotted-key parts in effect where the array or inline table opened (they nest its contents). */
  saved: number;
}

/**
 * TOML, tokenized as toml-patch tokenizes it (strings, multi-line strings, comments, bare tokens). A level is the
 * document, an array or inline table, or a part of a dotted key (`a.b.c = 1` nests `c` two tables down); a part
 * of a table header counts two (`[[a]]` then `[a.b]` puts `b` in a table in an array). The dots of a key count
 * until the next comma or line end at their level, so the dots of floats in a list never add up. Every dot of
 * the file also counts towards `maxKeyParts` (`max_key_parts`), which bounds toml-patch's time on a file of
 * many long dotted keys (a decimal point counts too: no real configuration holds 50,000 of either).
 */
export function tomlNestingViolation(
  text: string,
  limit = MAX_FILE_NESTING,
  maxKeyParts = MAX_TOML_KEY_PARTS,
): NestingViolation | undefined {
  const n = text.length;
  let parts = 0;
  const stack: TomlFrame[] = [];
  let savedSum = 0;
  let dots = 0;
  let table = 0;
  let header = 0;
  let afterEquals: boolean = false;
  // The document itself is the first level.
  const deeper = (at: number) =>
    1 + table + savedSum + stack.length + dots > limit ? violationAt(text, at, limit) : undefined;
  if (limit < 1) return violationAt(text, 0, limit);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === CR) continue;
    if (c === LF) {
      if (stack.length === 0) {
        dots = 0;
        header = 0;
        afterEquals = false;
      }
      continue;
    }
    const wasAfterEquals: boolean = afterEquals;
    afterEquals = false;
    if (c === 35) {
      while (i + 1 < n && text.charCodeAt(i + 1) !== LF && text.charCodeAt(i + 1) !== CR) i++;
      afterEquals = wasAfterEquals;
    } else if (c === 61) {
      afterEquals = true;
    } else if (c === 46) {
      dots++;
      if (++parts > maxKeyParts) return violationAt(text, i, maxKeyParts, 'max_key_parts');
      const v = deeper(i);
      if (v) return v;
    } else if (c === 44) {
      if (stack.length > 0) dots = 0;
    } else if (header > 0) {
      // Inside a table header: only its closing bracket matters (dots are counted above).
      if (c === CLOSE_BRACKET) {
        // Each part of a header may pass through an array of tables (`[[a]]` then `[a.b]`): two levels a part.
        table = 2 * (dots + 1);
        dots = 0;
        header = 0;
        const v = deeper(i);
        if (v) return v;
        if (text.charCodeAt(i + 1) === CLOSE_BRACKET) i++;
      } else if (c === QUOTE || c === APOSTROPHE) i = tokenEnd(text, i);
    } else if (c === OPEN_BRACKET && stack.length === 0 && !wasAfterEquals) {
      header = 1;
      if (text.charCodeAt(i + 1) === OPEN_BRACKET) i++;
      table = 0;
      dots = 0;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      stack.push({ opener: c, saved: dots });
      savedSum += dots;
      dots = 0;
      const v = deeper(i);
      if (v) return v;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      const top = stack[stack.length - 1];
      if (top && top.opener === (c === CLOSE_BRACKET ? OPEN_BRACKET : OPEN_BRACE)) {
        stack.pop();
        savedSum -= top.saved;
        dots = top.saved;
      }
    } else if (text.startsWith("'''", i)) {
      i = multilineEnd(text, i, "'");
    } else if (text.startsWith('"""', i) && backslashesBefore(text, i) % 2 === 0) {
      i = multilineEnd(text, i, '"');
    } else {
      i = tokenEnd(text, i);
    }
  }
  return undefined;
}
