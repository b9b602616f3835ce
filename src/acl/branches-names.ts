import { ValidationError } from '../infra/index.js';

/** Longest branch name accepted, in UTF-8 bytes: git stores a ref as a file, and a name component over 250
 * bytes (with `.lock` appended while it is written) breaks on common file systems. */
export const MAX_BRANCH_NAME_BYTES = 200;
/** Longest `{slug}` (the earlier product's rule). */
export const MAX_SLUG = 48;
/** Longest task id: it names branches and keys leases. */

/** The rule text every refused branch name names. */
export const REF_RULE =
  "git's check-ref-format --branch: no '..', '@{', '//', space, control characters or any of ~^:?*[\\; " +
  "no component starting with '.' or ending with '.lock'; not starting with '-' or '/', not ending with '/' or '.'; " +
  `at most ${MAX_BRANCH_NAME_BYTES} bytes`;

/** Characters git refuses in a ref name, plus what hub refuses on top (Unicode controls, format characters such
 * as bidi overrides and zero-width spaces, and every kind of space: they make a name look like another). */
const BAD_CHARS = /[\p{Cc}\p{Cf}\p{Z}\s~^:?*[\\]/u;

/** Why `name` is not a valid branch name, or undefined when it is. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (Buffer.byteLength(name, 'utf8') > MAX_BRANCH_NAME_BYTES)
    return `it is longer than ${MAX_BRANCH_NAME_BYTES} bytes`;
  if (name.startsWith('-')) return "it starts with '-' (it would be read as an option)";
  const bad = BAD_CHARS.exec(name);
  if (bad)
    return `it contains ${JSON.stringify(bad[0])} (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  if (name.includes('..')) return "it contains '..'";
  if (name.includes('@{')) return "it contains '@{'";
  if (name === '@') return "it is '@'";
  if (name === 'HEAD') return "it is 'HEAD'";
  if (name.startsWith('/') || name.endsWith('/')) return "it starts or ends with '/'";
  if (name.endsWith('.')) return "it ends with '.'";
  for (const part of name.split('/')) {
    if (part === '') return "it contains '//'";
    if (part.startsWith('.')) return `its component '${part}' starts with '.'`;
    if (part.endsWith('.lock')) return `its component '${part}' ends with '.lock'`;
  }
  return undefined;
}

/** Refuses a name git would not take as a branch (checked in code: no process, and the same on a server). */
export function checkBranchName(name: string, field = 'name', extra: Record<string, unknown> = {}): string {
  const problem = branchNameProblem(name);
  const from =
    typeof extra.pattern === 'string' ? ` (made by coordination.branch_pattern '${extra.pattern}')` : '';
  if (problem)
    throw new ValidationError(`${field}: '${shown(name)}' is not a valid branch name: ${problem}${from}`, {
      field,
      value: shown(name),
      rule: 'git check-ref-format --branch',
      rule_text: REF_RULE,
      ...extra,
    });
  return name;
}

/** Refuses a name outside `coordination.allowed_branch_prefixes`. */
export function checkAllowedPrefix(
  name: string,
  prefixes: readonly string[],
  field = 'name',
  extra: Record<string, unknown> = {},
): string {
  if (prefixes.some((p) => name.startsWith(p))) return name;
  throw new ValidationError(
    `${field}: '${shown(name)}' does not start with an allowed prefix (coordination.allowed_branch_prefixes: ${prefixes.map((p) => `'${p}'`).join(', ') || 'none'})`,
    {
      field,
      value: shown(name),
      rule: 'coordination.allowed_branch_prefixes',
      allowed: [...prefixes],
      ...extra,
    },
  );
}

/**
 * The earlier product's slug: lowercase letters and digits kept, each run of `-`, `_` or space becomes one `-`,
 * every other character is dropped, `-` trimmed from both ends, at most MAX_SLUG characters.
 */
export function slugOf(text: string): string {
  let out = '';
  let dash = false;
  for (const ch of text.toLowerCase()) {
    if (/^[a-z0-9]$/.test(ch)) {
      if (dash && out !== '') out += '-';
      out += ch;
      dash = false;
    } else if (ch === '-' || ch === '_' || ch === ' ') dash = true;
  }
  return out.slice(0, MAX_SLUG).replace(/-+$/, '');
}

/** Values of a branch pattern's placeholders. */
export interface PatternValues {
  task_id: string;
  slug?: string;
  agent_id?: string;
}

const PLACEHOLDERS = new Set(['task_id', 'slug', 'agent_id']);
const PATTERN_FIELD = 'coordination.branch_pattern';

function patternError(pattern: string, problem: string): ValidationError {
  return new ValidationError(`${PATTERN_FIELD}: '${pattern}' ${problem}`, {
    field: PATTERN_FIELD,
    value: pattern,
    rule: 'placeholders {task_id}, {slug}, {agent_id}; optional parts in [...], not nested',
  });
}

/** Fills `{name}` placeholders of one part; `empty` names the first placeholder without a value. */
function fill(pattern: string, part: string, values: PatternValues): { text: string; empty?: string } {
  if (/[{}]/.test(part.replace(/\{[^{}]*\}/g, ''))) throw patternError(pattern, 'has an unbalanced { or }');
  let empty: string | undefined;
  const text = part.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    if (!PLACEHOLDERS.has(name)) throw patternError(pattern, `has an unknown placeholder {${name}}`);
    const v = values[name as keyof PatternValues] ?? '';
    if (v === '') empty ??= name;
    return v;
  });
  return { text, empty };
}

/**
 * The branch name `coordination.branch_pattern` gives: placeholders filled, each `[...]` part dropped when a
 * placeholder in it is empty. A placeholder outside `[...]` that is empty is an error naming its input field.
 */
export function nameFromPattern(pattern: string, values: PatternValues): string {
  const parts: Array<{ text: string; optional: boolean }> = [];
  let i = 0;
  while (i < pattern.length) {
    const open = pattern.indexOf('[', i);
    const close = pattern.indexOf(']', i);
    if (close !== -1 && (open === -1 || close < open)) throw patternError(pattern, "has a ']' without '['");
    if (open === -1) {
      parts.push({ text: pattern.slice(i), optional: false });
      break;
    }
    parts.push({ text: pattern.slice(i, open), optional: false });
    const end = pattern.indexOf(']', open + 1);
    if (end === -1) throw patternError(pattern, "has a '[' without ']'");
    const inner = pattern.slice(open + 1, end);
    if (inner.includes('[')) throw patternError(pattern, 'nests [...] parts');
    parts.push({ text: inner, optional: true });
    i = end + 1;
  }
  let out = '';
  for (const p of parts) {
    const { text, empty: missing } = fill(pattern, p.text, values);
    if (missing === undefined) out += text;
    else if (!p.optional) {
      const field = missing === 'slug' ? 'description' : missing;
      throw new ValidationError(
        `${field}: required by ${PATTERN_FIELD} '${pattern}' (its {${missing}} is outside [...])`,
        { field, rule: `required by ${PATTERN_FIELD}`, pattern },
      );
    }
  }
  return out;
}

/** A value shortened for messages (a 10 KB name is not echoed whole). */
export function shown(value: string, max = 120): string {
  return value.length <= max ? value : `${value.slice(0, max)}... (${value.length} characters)`;
}
