import Mustache from 'mustache';
import type { ResolvedTemplate, TemplateIssue } from './resolve.js';
import { templateText, throwTemplateIssues } from './resolve.js';
import { TEMPLATE_LIMITS, VARIABLE_RE } from './schema.js';

/**
 * The template engine: Mustache (mustache.js), logic-less. What a `.tpl` may hold:
 * - `{{ name }}` (and `{{{ name }}}`, `{{& name }}`, the same here: nothing is HTML-escaped, bodies are Markdown);
 * - `{{# name }}...{{/ name }}` (shown when the value is non-empty or true), `{{^ name }}...{{/ name }}` (when not);
 * - `{{> partial }}`: the file `<partial>.md.tpl` of the template (any layer), else the bundled `_shared` one;
 * - `{{! comment }}`.
 * Names are declared variables only (letters, digits, `_`; no dotted names, no `.`), checked before anything is
 * rendered: an unknown one is an error naming the file, line and variable, never an empty string.
 */

type Token = [string, string, number, number, ...unknown[]];
export type View = Record<string, string | boolean>;

const PARTIAL_RE = /^[a-z0-9][a-z0-9._-]*$/;

// One writer per resolved template: its token cache lives as long as the template does, so eight vendors' renders
// parse each file once, and a long-running server never accumulates the overlays it has seen.
const writers = new WeakMap<ResolvedTemplate, Mustache.Writer>();
function writerOf(t: ResolvedTemplate): Mustache.Writer {
  let w = writers.get(t);
  if (!w) {
    w = new Mustache.Writer();
    writers.set(t, w);
  }
  return w;
}
const partialFile = (name: string) => `${name}.md.tpl`;

function lineCol(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  return { line, column: offset - last };
}

/** Tokens of one file, or the syntax issue with its line (mustache.js reports an offset). */
function parse(writer: Mustache.Writer, text: string, shown: string): Token[] | TemplateIssue {
  try {
    return writer.parse(text) as Token[];
  } catch (err) {
    const message = (err as Error).message;
    const at = /at (\d+)$/.exec(message);
    const pos = at ? lineCol(text, Number(at[1])) : { line: 1, column: 1 };
    return { file: shown, ...pos, message: message.replace(/ at \d+$/, ''), rule: 'template_syntax' };
  }
}

export interface CheckResult {
  issues: TemplateIssue[];
  /** Upper bound of the rendered size in characters, given the answers' lengths. */
  estimate: number;
}

/**
 * Checks `name` and every partial it reaches: syntax, declared variables, partials that exist, depth and cycles;
 * and estimates the rendered size from the values' lengths (for a bound before rendering).
 */
export function checkTemplateFile(
  t: ResolvedTemplate,
  name: string,
  declared: ReadonlySet<string>,
  valueLength: (variable: string) => number = () => 0,
): CheckResult {
  const writer = writerOf(t);
  const issues: TemplateIssue[] = [];
  const sizes = new Map<string, number>();

  const visit = (file: string, stack: string[]): number => {
    const known = sizes.get(file);
    if (known !== undefined) return known;
    let text: string;
    try {
      text = templateText(t, file);
    } catch (err) {
      const d = (err as { details?: { rule?: string } }).details;
      issues.push({
        file: t.files.get(file)?.shown ?? file,
        message: (err as Error).message,
        rule: d?.rule ?? 'readable',
      });
      return 0;
    }
    const shown = t.files.get(file)!.shown;
    const tokens = parse(writer, text, shown);
    if (!Array.isArray(tokens)) {
      issues.push(tokens);
      return 0;
    }
    const size = walk(tokens, text, shown, [...stack, file]);
    sizes.set(file, size);
    return size;
  };

  const walk = (tokens: Token[], text: string, shown: string, stack: string[]): number => {
    let size = 0;
    for (const tok of tokens) {
      const [type, value, start] = tok;
      if (type === 'text') size += value.length;
      else if (type === 'name' || type === '&' || type === '#' || type === '^') {
        if (!VARIABLE_RE.test(value) || !declared.has(value)) {
          issues.push({
            file: shown,
            ...lineCol(text, start),
            variable: value,
            message: VARIABLE_RE.test(value)
              ? `unknown variable '${value}' (declare it under inputs in template.yaml, or use a built-in: ${[...declared].sort().join(', ')})`
              : `'${value}' is not a variable name (letters, digits and _; no dotted names)`,
            rule: 'unknown_variable',
          });
          continue;
        }
        if (type === 'name' || type === '&') size += valueLength(value);
        else size += walk(tok[4] as Token[], text, shown, stack);
      } else if (type === '>') {
        const where = lineCol(text, start);
        const file = partialFile(value);
        if (!PARTIAL_RE.test(value) || !t.files.has(file)) {
          issues.push({
            file: shown,
            ...where,
            message: `unknown partial '${value}' (no ${file} in the template or the bundled _shared folder)`,
            rule: 'unknown_partial',
          });
        } else if (stack.includes(file)) {
          issues.push({
            file: shown,
            ...where,
            message: `partial '${value}' includes itself (${[...stack, file].join(' -> ')})`,
            rule: 'partial_cycle',
          });
        } else if (stack.length > TEMPLATE_LIMITS.partialDepth) {
          issues.push({
            file: shown,
            ...where,
            message: `partials nest deeper than ${TEMPLATE_LIMITS.partialDepth} (${[...stack, file].join(' -> ')})`,
            rule: 'partial_depth',
          });
        } else {
          // Indentation of a standalone partial is added to each of its lines: count it generously.
          size += visit(file, stack) * (1 + String(tok[4] ?? '').length);
        }
      }
      if (size > Number.MAX_SAFE_INTEGER / 4) return size;
    }
    return size;
  };

  const estimate = visit(name, []);
  return { issues, estimate };
}

/**
 * Renders one file of a resolved template with `view`, after checking it: any unknown variable, missing partial,
 * cycle, or a result that would pass the size bound is an error (file, line, variable) before a byte is rendered.
 */
export function renderFile(t: ResolvedTemplate, name: string, view: View): string {
  const declared = new Set(Object.keys(view));
  const lengths = (v: string) => String(view[v] ?? '').length;
  const { issues, estimate } = checkTemplateFile(t, name, declared, lengths);
  if (issues.length > 0) throwTemplateIssues(issues);
  if (estimate > TEMPLATE_LIMITS.renderedBytes)
    throwTemplateIssues([
      {
        file: t.files.get(name)!.shown,
        message: `would render about ${estimate} characters, past the limit of ${TEMPLATE_LIMITS.renderedBytes}`,
        rule: 'max_rendered_size',
      },
    ]);
  const writer = writerOf(t);
  const safeView: View = Object.assign(Object.create(null) as View, view);
  return writer.render(
    templateText(t, name),
    safeView,
    (partial: string) => templateText(t, partialFile(partial)),
    { escape: (v: unknown) => String(v) },
  );
}
