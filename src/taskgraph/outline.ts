import * as z from 'zod';
import { checkJsonBounds, ValidationError } from '../infra/index.js';
import { TASK_LIMITS } from './schema.js';

/** One node to add, as an outline gives it. */
export interface OutlineItem {
  title: string;
  node_id?: string;
  depends_on?: string[];
  repository?: string;
  component?: string;
  patterns?: string[];
  priority?: number;
  estimated_tokens?: number;
  context_budget?: number;
  /** Index of the outline item this one depends on (indented text: the nearest shallower line). */
  parent?: number;
}

const tokens = z
  .number()
  .int()
  .min(0)
  .max(TASK_LIMITS.tokens)
  .describe(`Whole tokens, 0 to ${TASK_LIMITS.tokens}.`);

/** The fields an outline item (and `task expand`'s JSON) may carry; anything else is refused by name. */
export const outlineItemFields = {
  title: z.string().trim().min(1).max(TASK_LIMITS.title_chars).describe('What the node is (at most 200).'),
  node_id: z
    .string()
    .min(1)
    .optional()
    .describe('Node id (default: slug of the title, numbered on collision).'),
  depends_on: z
    .array(z.string().min(1))
    .max(TASK_LIMITS.depends_on_per_node)
    .optional()
    .describe('Ids (or, within one outline, titles) of the nodes it waits for.'),
  repository: z.string().min(1).optional().describe('project/repo of the manifest the work is in.'),
  component: z.string().min(1).optional().describe('Catalogued component bind-acl claims.'),
  patterns: z
    .array(z.string().min(1))
    .max(TASK_LIMITS.patterns_per_node)
    .optional()
    .describe('Globs bind-acl claims.'),
  priority: z
    .number()
    .int()
    .min(-TASK_LIMITS.priority_abs)
    .max(TASK_LIMITS.priority_abs)
    .optional()
    .describe('Higher is scheduled first (default 0).'),
  estimated_tokens: tokens.optional(),
  context_budget: tokens.optional(),
};
const OutlineObjectSchema = z.strictObject(outlineItemFields);

const fail = (field: string, message: string, rule: string, value?: unknown) =>
  new ValidationError(`${field}: ${message}`, {
    field,
    rule,
    ...(value === undefined ? {} : { value }),
  });

function checkSize(text: string, field: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > TASK_LIMITS.outline_bytes)
    throw fail(
      field,
      `the outline is ${bytes} bytes; at most ${TASK_LIMITS.outline_bytes} (TASK_LIMITS.outline_bytes)`,
      'outline_bytes',
      bytes,
    );
}

function tooMany(field: string, count: number): ValidationError {
  return fail(
    field,
    `the outline has ${count} items; a graph holds at most ${TASK_LIMITS.nodes_per_graph} nodes`,
    'nodes_per_graph',
    count,
  );
}

function parseJsonOutline(text: string, field: string): OutlineItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw fail(field, `not valid JSON: ${(err as Error).message}`, 'json');
  }
  // Before zod and any error rendering: both recurse, and a hostile outline may nest deeply.
  checkJsonBounds(parsed, { depth: 8, bytes: TASK_LIMITS.outline_bytes }, field);
  if (!Array.isArray(parsed)) throw fail(field, 'a JSON outline is a list of titles or objects', 'json_list');
  if (parsed.length > TASK_LIMITS.nodes_per_graph) throw tooMany(field, parsed.length);
  return parsed.map((raw, i) => {
    const at = `${field}[${i}]`;
    if (typeof raw === 'string') return { title: checkTitle(raw, at) };
    const r = OutlineObjectSchema.safeParse(raw);
    if (r.success) return r.data;
    const iss = r.error.issues[0]!;
    const where = [at, ...iss.path.map(String)].join('.');
    const message =
      iss.code === 'unrecognized_keys'
        ? `unknown field(s) ${iss.keys.join(', ')}; an item has ${Object.keys(outlineItemFields).join(', ')}`
        : iss.message;
    throw fail(where, message, iss.code);
  });
}

function checkTitle(raw: string, field: string): string {
  const title = raw.trim();
  if (title === '') throw fail(field, 'a title is required', 'non_empty');
  if (title.length > TASK_LIMITS.title_chars)
    throw fail(
      field,
      `the title has ${title.length} characters; at most ${TASK_LIMITS.title_chars}`,
      'title_chars',
      title.length,
    );
  return title;
}

/** Columns of a line's indentation; a tab counts as 4. */
function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
}

const BULLET_RE = /^[-*+](?:\s+|$)/;

function parseTextOutline(text: string, field: string): OutlineItem[] {
  const out: OutlineItem[] = [];
  // The open lines above the current one, shallowest first: an explicit stack, never recursion.
  const open: Array<{ indent: number; index: number }> = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const indent = indentOf(line);
    const title = checkTitle(line.trim().replace(BULLET_RE, ''), `${field} line ${i + 1}`);
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    const parent = open[open.length - 1]?.index;
    out.push(parent === undefined ? { title } : { title, parent });
    if (out.length > TASK_LIMITS.nodes_per_graph) throw tooMany(field, out.length);
    open.push({ indent, index: out.length - 1 });
  }
  return out;
}

/**
 * Parses an outline: a JSON list (titles, or objects with title, node_id, depends_on, repository, component,
 * patterns, priority, estimated_tokens, context_budget), or indented text where each line depends on the nearest
 * shallower line above it (leading `-`, `*`, `+` bullets stripped). Bounded: TASK_LIMITS.outline_bytes and
 * nodes_per_graph; errors name the item or line.
 */
export function parseOutline(text: string, field = 'outline'): OutlineItem[] {
  checkSize(text, field);
  const items = text.trimStart().startsWith('[')
    ? parseJsonOutline(text, field)
    : parseTextOutline(text, field);
  if (items.length === 0) throw fail(field, 'the outline has no items', 'non_empty');
  return items;
}
