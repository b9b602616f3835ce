import type * as z from 'zod';
import { NotFoundError, randomHex, ValidationError } from '../infra/index.js';
import { type DocumentStore, updateDocument } from '../state/index.js';
import { ID_RE } from './schemas.js';
import { parseWithSetAside, replacing, type SetAsideRecord } from './set-aside.js';

/** What every coordination function needs: the store, its retry budget and a clock. */
export interface CoordDeps {
  store: DocumentStore;
  /** Reload-and-reapply attempts after a compare-and-swap conflict (state.conflict_retries). */
  retries: number;
  now: () => Date;
  /** Told of every record set aside as invalid by a read or write (the CLI's stderr, a server's log). */
  report?: (records: readonly SetAsideRecord[]) => void;
}

/** Document names in the store. */
export const DOCS = {
  objectives: 'objectives',
  handoffs: 'handoffs',
  approvals: 'approvals',
  events: 'coord.events',
} as const;

/**
 * Parses a stored document. A record that breaks its schema is set aside (left out, reported to `report`); a
 * document malformed beyond its records is refused naming the field (parseWithSetAside).
 */
export function parseDoc<S extends z.ZodType>(
  name: string,
  schema: S,
  value: unknown,
  report?: CoordDeps['report'],
): z.output<S> {
  const { doc, setAside } = parseWithSetAside(name, schema, value);
  if (setAside.length > 0) report?.(setAside);
  return doc;
}

export async function readDoc<S extends z.ZodType>(
  deps: CoordDeps,
  name: string,
  schema: S,
): Promise<z.output<S>> {
  return (await readDocSettingAside(deps, name, schema)).doc;
}

/** readDoc, and the records it set aside (listings answer them as `set_aside`). */
export async function readDocSettingAside<S extends z.ZodType>(
  deps: CoordDeps,
  name: string,
  schema: S,
): Promise<{ doc: z.output<S>; setAside: SetAsideRecord[] }> {
  const { value } = await deps.store.read(name);
  const { doc, setAside } = parseWithSetAside(name, schema, value);
  if (setAside.length > 0) deps.report?.(setAside);
  return { doc, setAside };
}

/**
 * Compare-and-swap update of one parsed document; `fn` may run more than once and must be pure. Records set aside
 * as invalid are not shown to `fn` and are stored back as they were, where they were. `eventsOf` gives the events
 * the change records, in the same step as the write where the backend can (recordsInStep).
 */
export async function updateDoc<S extends z.ZodType, R>(
  deps: CoordDeps,
  name: string,
  schema: S,
  fn: (doc: z.output<S>) => R,
  eventsOf?: (result: R) => Record<string, unknown>[],
): Promise<R> {
  let reported: SetAsideRecord[] = [];
  const { result } = await updateDocument<z.output<S>, R>(
    deps.store,
    name,
    (current) => {
      const { doc, setAside, restore } = parseWithSetAside(name, schema, current);
      reported = setAside;
      let r: R;
      try {
        r = fn(doc);
      } catch (err) {
        // "Not found" of a record that is only set aside: say why, and how to get it back.
        const wanted = err instanceof NotFoundError ? err.details?.value : undefined;
        const hidden = setAside.find((n) => n.id !== undefined && n.id === wanted);
        throw hidden ? replacing(name, hidden) : err;
      }
      return { value: restore(doc), result: r, ...(eventsOf ? { events: eventsOf(r) } : {}) };
    },
    { retries: deps.retries },
  );
  if (reported.length > 0) deps.report?.(reported);
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

/**
 * Whether a change's events go with its write (updateDoc's `eventsOf`): on every store with an events log of its
 * own (local and memory in the write's step; DynamoDB and MongoDB right after it), not through the http backend,
 * whose server records them (and one that keeps only the spec's contract has nowhere to: recordEvent says so).
 */
export function recordsInStep(store: DocumentStore): boolean {
  return store.events !== undefined && store.callRoute === undefined;
}
