import type * as z from 'zod';
import { jsonPath, RefusedError } from '../infra/index.js';

/**
 * A stored record that breaks its schema (a hand edit, another tool, an older build): set aside, not served, kept
 * where it is stored, and reported, so one bad record never blocks the rest of its document.
 */
export interface SetAsideRecord {
  document: string;
  /** Where the record is stored, e.g. `objectives[2]` (or `agent` for a document's single record). */
  record: string;
  /** The first field that breaks the schema, e.g. `objectives[2].status`. */
  field: string;
  /** The schema rule it breaks (zod's issue code, e.g. `invalid_value`, `invalid_type`). */
  rule: string;
  message: string;
  /** The record's `id`, when it has one. */
  id?: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Slot {
  key: string;
  /** A list of records (`index` set) or a single record under `key`. */
  index?: number;
  raw: unknown;
}

/** A parsed document, the records set aside from it, and how to put them back into what a writer returns. */
export interface Screened<T> {
  doc: T;
  setAside: SetAsideRecord[];
  /** `doc` (as a writer left it) with every set-aside record back where it was stored. */
  restore(doc: T): T;
}

interface ZodDefLike {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
}
const defOf = (t: z.ZodType): ZodDefLike => (t as unknown as { _zod: { def: ZodDefLike } })._zod.def;

/** The record schema of a document field: a list of records, or one record (an object field). */
function recordsOf(field: z.ZodType): { list: boolean; record: z.ZodType } | undefined {
  let t = field;
  for (let i = 0; i < 8; i++) {
    const def = defOf(t);
    if (!['default', 'optional', 'nullable', 'prefault', 'catch'].includes(def.type) || !def.innerType) break;
    t = def.innerType;
  }
  const def = defOf(t);
  if (def.type === 'array' && def.element) return { list: true, record: def.element };
  if (def.type === 'object') return { list: false, record: t };
  return undefined;
}

function firstIssue(
  error: z.ZodError,
  prefix: (string | number)[],
): { field: string; rule: string; message: string } {
  const iss = error.issues[0]!;
  return {
    field: jsonPath([...prefix, ...(iss.path as (string | number)[])]),
    rule: iss.code,
    message: iss.message,
  };
}

/** The refusal of a document whose shape (not one record) is wrong: nothing can tell its records apart. */
function malformed(name: string, error: z.ZodError): RefusedError {
  const { field, rule, message } = firstIssue(error, []);
  return new RefusedError(
    `state document '${name}' is malformed at ${field || '(document)'}: ${message} (${rule}); its records cannot be told apart, so nothing was read or written: repair the document, or move it aside`,
    { document: name, field: field || '(document)', rule },
    409,
  );
}

/**
 * Parses a stored document with `schema`. A record (item of a list field, or an object field) that breaks its own
 * schema is set aside: left out of `doc`, reported in `setAside` with its path and rule, and put back by `restore`
 * exactly as it was stored (at its index), so a writer of the rest keeps it. A document whose shape is wrong
 * beyond its records is refused (409) naming the field.
 */
export function parseWithSetAside<S extends z.ZodType>(
  name: string,
  schema: S,
  value: unknown,
): Screened<z.output<S>> {
  const whole = schema.safeParse(value ?? {});
  if (whole.success) return { doc: whole.data, setAside: [], restore: (d) => d };
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!isObject(value) || !shape) throw malformed(name, whole.error);
  const slots: Slot[] = [];
  const setAside: SetAsideRecord[] = [];
  const cleaned: Obj = { ...value };
  const note = (slot: Slot, error: z.ZodError, at: (string | number)[]) => {
    const id = isObject(slot.raw) && typeof slot.raw.id === 'string' ? slot.raw.id : undefined;
    slots.push(slot);
    setAside.push({ document: name, record: jsonPath(at), ...firstIssue(error, at), ...(id ? { id } : {}) });
  };
  for (const [key, field] of Object.entries(shape)) {
    const records = recordsOf(field);
    const stored = value[key];
    if (!records || stored === undefined) continue;
    if (records.list) {
      if (!Array.isArray(stored)) continue;
      const kept: unknown[] = [];
      stored.forEach((item, index) => {
        const r = records.record.safeParse(item);
        if (r.success) kept.push(item);
        else note({ key, index, raw: item }, r.error, [key, index]);
      });
      if (kept.length !== stored.length) cleaned[key] = kept;
    } else {
      const r = records.record.safeParse(stored);
      if (!r.success) {
        note({ key, raw: stored }, r.error, [key]);
        delete cleaned[key];
      }
    }
  }
  const rest = schema.safeParse(cleaned);
  if (!rest.success || slots.length === 0) throw malformed(name, rest.success ? whole.error : rest.error);
  return { doc: rest.data, setAside, restore: (doc) => restoreSlots(name, doc, slots, setAside) };
}

function restoreSlots<T>(name: string, doc: T, slots: Slot[], notes: SetAsideRecord[]): T {
  const out = { ...(doc as Obj) };
  slots.forEach((slot, n) => {
    const note = notes[n]!;
    if (slot.index === undefined) {
      if (out[slot.key] !== undefined) throw replacing(name, note);
      out[slot.key] = slot.raw;
      return;
    }
    const list = Array.isArray(out[slot.key]) ? [...(out[slot.key] as unknown[])] : [];
    // A record made meanwhile under the id of one set aside would leave two with that id once it is repaired.
    if (note.id !== undefined && list.some((r) => isObject(r) && r.id === note.id))
      throw replacing(name, note);
    list.splice(Math.min(slot.index, list.length), 0, slot.raw);
    out[slot.key] = list;
  });
  return out as T;
}

/** The refusal of a write that would replace (or duplicate) a record set aside: it stays until repaired. */
export function replacing(name: string, note: SetAsideRecord): RefusedError {
  const which = note.id === undefined ? note.record : `'${note.id}' (${note.record})`;
  return new RefusedError(
    `record ${which} of state document '${name}' is set aside as invalid (${note.field}: ${note.message}, ${note.rule}); repair or remove it in the stored document first: hub keeps it as stored and writes nothing over it`,
    {
      document: name,
      record: note.record,
      field: note.field,
      rule: 'record_set_aside',
      ...(note.id ? { id: note.id } : {}),
    },
    409,
  );
}

/** One line for a log (stderr of the CLI, the server's log) naming a set-aside record, its field and rule. */
export function setAsideLine(n: SetAsideRecord): string {
  const which = n.id === undefined ? n.record : `${n.record} (id '${n.id}')`;
  return `hub: state document '${n.document}': ${which} is set aside: ${n.field}: ${n.message} (${n.rule}); it is kept as stored and left out until repaired or removed`;
}
