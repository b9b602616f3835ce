import type * as z from 'zod';
import { HubError, randomHex, ValidationError } from '../infra/index.js';
import { type DocumentStore, updateDocument } from '../state/index.js';
import { ID_RE } from './schemas.js';

/** What every coordination function needs: the store, its retry budget and a clock. */
export interface CoordDeps {
  store: DocumentStore;
  /** Reload-and-reapply attempts after a compare-and-swap conflict (state.conflict_retries). */
  retries: number;
  now: () => Date;
}

/** Document names in the store. */
export const DOCS = {
  objectives: 'objectives',
  handoffs: 'handoffs',
  approvals: 'approvals',
  events: 'coord.events',
} as const;

/** Parses a stored document; a malformed one is reported with its first bad field, never silently dropped. */
export function parseDoc<S extends z.ZodType>(name: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const iss = parsed.error.issues[0]!;
  const where = iss.path.map(String).join('.') || '(document)';
  throw new HubError('internal', `state document '${name}' is malformed at ${where}: ${iss.message}`, {
    document: name,
    field: where,
    rule: iss.code,
  });
}

export async function readDoc<S extends z.ZodType>(
  deps: CoordDeps,
  name: string,
  schema: S,
): Promise<z.output<S>> {
  const { value } = await deps.store.read(name);
  return parseDoc(name, schema, value);
}

/** Compare-and-swap update of one parsed document; `fn` may run more than once and must be pure. */
export async function updateDoc<S extends z.ZodType, R>(
  deps: CoordDeps,
  name: string,
  schema: S,
  fn: (doc: z.output<S>) => R,
): Promise<R> {
  const { result } = await updateDocument<z.output<S>, R>(
    deps.store,
    name,
    (current) => {
      const doc = parseDoc(name, schema, current);
      const r = fn(doc);
      return { value: doc, result: r };
    },
    { retries: deps.retries },
  );
  return result;
}

/** A short random id with a prefix, e.g. `ho-3f9a1c2b7d10`. */
export function newId(prefix: string): string {
  return `${prefix}-${randomHex(6)}`;
}

/** Checks a record id against the slug rule `[A-Za-z0-9_.-]+`. */
export function checkId(id: string, what = 'objective'): string {
  if (!ID_RE.test(id))
    throw new ValidationError(`id: '${id}' is not a valid ${what} id; ids match [A-Za-z0-9_.-]+`, {
      field: 'id',
      value: id,
      rule: '[A-Za-z0-9_.-]+',
    });
  return id;
}
