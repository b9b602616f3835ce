/**
 * What a person should change when YAML does not parse. The parser's first message names a symptom ("Nested
 * mappings are not allowed in compact mappings") often a line away from the cause, and one misplaced line makes it
 * emit several more; the usual causes of a hand-edited file (a line indented off the column of its siblings, a
 * line nested under a key that already has a value, a key without its colon) are recognised here from the text.
 */
export interface SyntaxHint {
  /** 1-based line the change belongs on. */
  line: number;
  /** What is wrong and what was expected, in words. */
  message: string;
}

const indentOf = (s: string) => /^ */.exec(s)![0].length;
const isContent = (s: string) => s.trim() !== '' && !s.trim().startsWith('#') && !/^(---|\.\.\.)\s*$/.test(s);
/** `key: value` with a value on the same line (not a block scalar indicator, not a flow opener left open). */
const KEY_WITH_VALUE = /^\s*(?:- +)?[^\s#'"[{][^:#]*?:[ \t]+[^\s#|>]/;
const KEY_AT_END = /^\s*(?:- +)?[^\s#][^#]*?:\s*(?:#.*)?$/;

function nearest(lines: string[], from: number, step: 1 | -1): number | undefined {
  for (let i = from + step; i >= 0 && i < lines.length; i += step) if (isContent(lines[i]!)) return i;
  return undefined;
}

/** The columns where keys of the blocks enclosing line `at` start (a `- ` item opens one 2 further in). */
function enclosingColumns(lines: string[], at: number): Set<number> {
  const cols = new Set<number>([0]);
  let min = Number.POSITIVE_INFINITY;
  for (let i = at - 1; i >= 0; i--) {
    const s = lines[i]!;
    if (!isContent(s)) continue;
    const ind = indentOf(s);
    if (ind > min) continue;
    min = ind;
    cols.add(ind);
    const dash = /^( *)- +/.exec(s);
    if (dash) cols.add(dash[0].length);
  }
  return cols;
}

const spaces = (n: number) => `${n} space${n === 1 ? '' : 's'}`;

function deeperThanValue(lines: string[], parent: number, child: number): SyntaxHint | undefined {
  const p = lines[parent]!;
  const c = lines[child]!;
  if (indentOf(c) <= indentOf(p) || !KEY_WITH_VALUE.test(p) || !/^\s*[^\s#][^#]*?:(\s|$)/.test(c))
    return undefined;
  return {
    line: child + 1,
    message:
      `this line is indented ${spaces(indentOf(c))}, deeper than line ${parent + 1} (${spaces(indentOf(p))}), ` +
      `whose key already has a value: indent it ${spaces(indentOf(p))} like that key, or nest it under a key that ends with ':'`,
  };
}

/** A `[` or `{` the line opens and does not close (quotes and comments left aside). */
function unclosedFlow(s: string): string | undefined {
  const text = s.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '').replace(/\s#.*$/, '');
  const open = [...text].filter((c) => c === '[' || c === '{');
  const close = [...text].filter((c) => c === ']' || c === '}');
  if (open.length <= close.length) return undefined;
  return open[open.length - 1];
}

/** The hint for a parse error reported at `line` (1-based) of `text`; undefined when no usual cause fits. */
export function syntaxHint(text: string, line: number): SyntaxHint | undefined {
  const lines = text.split('\n').map((s) => s.replace(/\r$/, ''));
  const at = line - 1;
  const here = lines[at];
  if (here === undefined || /^ *\t/.test(here) || !isContent(here)) return undefined;
  const prev = nearest(lines, at, -1);
  const next = nearest(lines, at, 1);
  // A flow list or mapping left open: the parser notices on a later line.
  for (const i of [at, prev]) {
    if (i === undefined) continue;
    const opener = unclosedFlow(lines[i]!);
    if (opener)
      return {
        line: i + 1,
        message: `this line opens '${opener}' and does not close it: end it with '${opener === '[' ? ']' : '}'}' on the same line`,
      };
  }
  // `key: a: b`: the second ': ' starts a mapping where a plain value was expected.
  const pair = /^\s*(?:- +)?([^\s#'"[{][^:#]*?):[ \t]+([^\s'"[{#|>].*)$/.exec(here);
  if (pair && /:( |$)/.test(pair[2]!.replace(/\s#.*$/, '')))
    return {
      line,
      message: `the value of '${pair[1]}' holds ': ', which YAML reads as a key: quote the value ("${pair[2]!.replace(/"/g, '\\"')}")`,
    };
  // A line nested under a key that has a value: the parser may blame that line or the one with the value.
  const under = prev !== undefined ? deeperThanValue(lines, prev, at) : undefined;
  if (under) return under;
  const ind = indentOf(here);
  if (prev !== undefined && ind < indentOf(lines[prev]!) && !enclosingColumns(lines, at).has(ind)) {
    const above = indentOf(lines[prev]!);
    return {
      line,
      message:
        `this line is indented ${spaces(ind)}, the key above it ${spaces(above)}: keys of one mapping start in ` +
        'the same column (indent it like its siblings, or like the key it belongs under)',
    };
  }
  const over = next !== undefined ? deeperThanValue(lines, at, next) : undefined;
  if (over) return over;
  const body = here.trim().replace(/^- +/, '');
  const siblingIsKey = prev !== undefined && indentOf(lines[prev]!) === ind && /:(\s|$)/.test(lines[prev]!);
  if (
    !/:(\s|$)/.test(body) &&
    /^[A-Za-z_][\w.-]*\s+\S/.test(body) &&
    (siblingIsKey || KEY_AT_END.test(lines[prev ?? at]!))
  )
    return {
      line,
      message: `'${body}' is not a key and a value: a key takes ': ' (a colon and a space) before its value`,
    };
  return undefined;
}
