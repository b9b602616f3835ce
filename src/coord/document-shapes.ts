import type * as z from 'zod';
import { jsonPath, ValidationError } from '../infra/index.js';
import { DOCS } from './documents.js';
import { ApprovalRequestSchema, HandoffSchema, ObjectiveSchema } from './schemas.js';

type Obj = Record<string, unknown>;

interface Shape {
  /** The key of the document's list of records. */
  key: string;
  record: z.ZodType;
  /** Values of the fields a record may leave out, for a record written at `now` (ISO). */
  defaults: (record: Obj, now: string) => Obj;
}

/**
 * The coordination documents whose shape is known. Each default is what the operation creating such a record
 * would have written; every other field the record schema requires is refused naming it.
 */
const SHAPES: Readonly<Record<string, Shape>> = {
  [DOCS.objectives]: {
    key: 'objectives',
    record: ObjectiveSchema,
    defaults: (r, now) => ({
      status: 'pending',
      repos: [],
      created_at: now,
      updated_at: typeof r.created_at === 'string' ? r.created_at : now,
    }),
  },
  [DOCS.handoffs]: {
    key: 'handoffs',
    record: HandoffSchema,
    defaults: (r, now) => ({
      status: 'open',
      created_by: 'agent',
      payload: {},
      events: [],
      created_at: now,
      updated_at: typeof r.created_at === 'string' ? r.created_at : now,
    }),
  },
  [DOCS.approvals]: {
    key: 'requests',
    record: ApprovalRequestSchema,
    defaults: (_r, now) => ({ status: 'pending', requested_by: 'agent', payload: {}, created_at: now }),
  },
};

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list key of a known coordination document, or undefined for any other document. */
export function documentListKey(name: string): string | undefined {
  return SHAPES[name]?.key;
}

function refuse(document: string, field: string, message: string, rule: string, value?: unknown): never {
  const shown = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 80)})`;
  throw new ValidationError(`document '${document}': ${field}: ${message}${shown}`, {
    document,
    field,
    rule,
    ...(value === undefined || (typeof value === 'object' && value !== null) ? {} : { value }),
  });
}

type Segment = string | number;

/** `at(path)`: the field path of `path` inside the record, e.g. `objectives[0].title`. */
function normalizeRecord(
  name: string,
  shape: Shape,
  record: unknown,
  at: (path: Segment[]) => string,
  now: string,
): Obj {
  if (!isObject(record)) return refuse(name, at([]), 'must be a JSON object', 'json_object');
  const filled: Obj = { ...record };
  for (const [k, v] of Object.entries(shape.defaults(record, now)))
    if (filled[k] === undefined) filled[k] = v;
  const parsed = shape.record.safeParse(filled);
  if (parsed.success) return parsed.data as Obj;
  const iss = parsed.error.issues[0]!;
  let value: unknown = filled;
  for (const k of iss.path)
    value = isObject(value) || Array.isArray(value) ? (value as Obj)[k as string] : undefined;
  return refuse(name, at(iss.path as Segment[]), iss.message, iss.code, value);
}

/**
 * A whole coordination document as it may be stored: every record checked against its schema, with the fields
 * that have a default filled in (status, timestamps from `now`, empty lists and payloads). Refuses (ValidationError
 * naming the field, e.g. `objectives[0].title`) a list that is not one, a record that is not an object, a field
 * the schema rejects and a duplicate id. Any other document is returned as given: the generic routes stay generic.
 * `value` must already be within the document bounds (zod recurses).
 */
export function normalizeDocument(name: string, value: unknown, now: Date): unknown {
  const shape = SHAPES[name];
  if (!shape || !isObject(value)) return value;
  const list = value[shape.key];
  if (list === undefined) return { ...value, [shape.key]: [] };
  if (!Array.isArray(list)) return refuse(name, shape.key, 'must be a list of records', 'list', list);
  const at = now.toISOString();
  const seen = new Set<string>();
  const records = list.map((r, i) => {
    const out = normalizeRecord(name, shape, r, (p) => jsonPath([shape.key, i, ...p]), at);
    const id = out.id as string;
    if (seen.has(id)) refuse(name, jsonPath([shape.key, i, 'id']), `duplicate id '${id}'`, 'unique_id');
    seen.add(id);
    return out;
  });
  return { ...value, [shape.key]: records };
}

/**
 * One record appended to a known coordination document's list, checked and filled in as normalizeDocument does
 * (the uniqueness of its id is the appender's business: append has no compare-and-swap). Any other item is
 * returned as given.
 */
export function normalizeAppended(name: string, key: string, item: unknown, now: Date): unknown {
  const shape = SHAPES[name];
  if (!shape || key !== shape.key) return item;
  const at = (p: Segment[]) => (p.length === 0 ? `${key}[]` : `${key}[]${jsonPath([0, ...p]).slice(3)}`);
  return normalizeRecord(name, shape, item, at, now.toISOString());
}
