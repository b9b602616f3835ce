import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { type HandoffEntries, handoffChangeEvents, recordHandoffEntries } from './change-events.js';
import {
  type CoordDeps,
  checkId,
  DOCS,
  newId,
  readDoc,
  readDocSettingAside,
  recordsInStep,
  updateDoc,
} from './documents.js';
import { parseDuration } from './duration.js';
import { type Handoff, type HandoffStatus, type HandoffsDoc, HandoffsDocSchema } from './schemas.js';
import type { SetAsideRecord } from './set-aside.js';

/** Who records automatic transitions (expired-claim release). */
export const SYSTEM_ACTOR = 'hub';

export interface HandoffCreate {
  id?: string;
  /** Required; typed optional because stdin JSON may be the only source. */
  title?: string;
  created_by?: string;
  payload?: Record<string, unknown>;
  note?: string;
  /**
   * The events of a whole handoff item (what a contract client appends): the note of its `create` event is the
   * note when `note` is absent. Status, timestamps and events are the creator's own, so they are stamped anew.
   */
  events?: ReadonlyArray<{ action: string; note?: string }>;
}

export interface ClaimInput {
  id: string;
  by: string;
  /** Duration such as `30m`; without it the claim does not expire. */
  ttl?: string;
}

const event = (at: string, by: string, action: string, note?: string) => ({
  at,
  by,
  action,
  ...(note ? { note } : {}),
});

function clearClaim(h: Handoff): void {
  delete h.claimed_by;
  delete h.claimed_at;
  delete h.claim_ttl;
  delete h.claim_expires_at;
  delete h.last_heartbeat_at;
}

/** True when the handoff holds a claim whose TTL has run out at `now`. */
export function claimExpired(h: Handoff, now: Date): boolean {
  return (
    h.status === 'claimed' &&
    typeof h.claim_expires_at === 'string' &&
    Date.parse(h.claim_expires_at) <= now.getTime()
  );
}

/**
 * Releases every expired claim in place (status back to open, a `release-expired` event); returns their ids.
 * The release is dated at the claim's expiry, not at whoever noticed it: a listing shows exactly what the next
 * write of the document records, whenever that happens, and an events cursor never misses it.
 */
export function releaseExpired(doc: Pick<HandoffsDoc, 'handoffs'>, now: Date): string[] {
  const released: string[] = [];
  for (const h of doc.handoffs) {
    if (!claimExpired(h, now)) continue;
    const at = h.claim_expires_at as string;
    const note = `claim by ${h.claimed_by} expired at ${at}`;
    clearClaim(h);
    h.status = 'open';
    if (h.updated_at < at) h.updated_at = at;
    h.events.push(event(at, SYSTEM_ACTOR, 'release-expired', note));
    released.push(h.id);
  }
  return released;
}

/**
 * A stored handoffs document as every listing shows it at `now`: expired claims released (a copy; the stored
 * document is unchanged until its next write records the same release). Items that are not handoffs, and a
 * document that is not `{handoffs: [...]}`, are shown as stored.
 */
export function handoffsView<T>(stored: T, now: Date): { view: T; released: string[] } {
  const list = (stored as { handoffs?: unknown } | undefined)?.handoffs;
  if (!Array.isArray(list)) return { view: stored, released: [] };
  const looksExpired = (h: unknown) => {
    const x = h as Partial<Handoff> | null;
    return typeof x === 'object' && x !== null && Array.isArray(x.events) && claimExpired(x as Handoff, now);
  };
  if (!list.some(looksExpired)) return { view: stored, released: [] };
  const view = structuredClone(stored) as T & { handoffs: unknown[] };
  const expired = view.handoffs.filter(looksExpired) as Handoff[];
  return { view, released: releaseExpired({ handoffs: expired }, now) };
}

function find(doc: HandoffsDoc, id: string): Handoff {
  const h = doc.handoffs.find((x) => x.id === id);
  if (!h) throw new NotFoundError(`handoff '${id}' not found`, { field: 'id', value: id });
  return h;
}

function refuseClosed(h: Handoff, verb: string): void {
  if (h.status === 'completed' || h.status === 'cancelled') {
    throw new RefusedError(
      `cannot ${verb} handoff '${h.id}': it is ${h.status}`,
      { id: h.id, status: h.status, rule: 'handoff_open' },
      409,
    );
  }
}

function holderText(h: Handoff): string {
  return h.claim_expires_at ? `until ${h.claim_expires_at}` : 'with no expiry';
}

/** A new open handoff from create input (or a whole posted item), stamped at `now`. */
export function newHandoff(input: HandoffCreate, now: Date): Handoff {
  const title = input.title?.trim();
  if (!title) throw new ValidationError('title: required, non-empty', { field: 'title', rule: 'required' });
  const id = input.id ? checkId(input.id, 'handoff') : newId('ho');
  const at = now.toISOString();
  const by = input.created_by?.trim() || 'agent';
  const note = input.note ?? input.events?.find((e) => e.action === 'create')?.note;
  return {
    id,
    title,
    created_by: by,
    created_at: at,
    updated_at: at,
    status: 'open',
    payload: input.payload ?? {},
    events: [event(at, by, 'create', note)],
  };
}

function refuseDuplicate(doc: HandoffsDoc, id: string): void {
  if (doc.handoffs.some((h) => h.id === id))
    throw new RefusedError(`handoff '${id}' already exists`, { id, rule: 'unique_id' }, 409);
}

/**
 * Creates a handoff. Where the store serializes writers (local, memory) the duplicate-id check and the append are
 * one atomic step; elsewhere it appends without compare-and-swap, as the spec asks, after a check.
 */
export async function createHandoff(deps: CoordDeps, input: HandoffCreate): Promise<Handoff> {
  const handoff = newHandoff(input, deps.now());
  if (deps.store.update) {
    return updateHandoffs(deps, (doc) => {
      refuseDuplicate(doc, handoff.id);
      doc.handoffs.push(handoff);
      return handoff;
    });
  }
  refuseDuplicate(await readDoc(deps, DOCS.handoffs, HandoffsDocSchema), handoff.id);
  await deps.store.append(DOCS.handoffs, 'handoffs', handoff);
  await recordHandoffEntries(deps.store, [{ handoff, from: 0 }]);
  return handoff;
}

/** Lists handoffs as they stand at `now`: expired claims shown released (listing never writes). */
export async function listHandoffs(
  deps: CoordDeps,
  status?: HandoffStatus,
): Promise<{ handoffs: Handoff[]; released: string[]; set_aside?: SetAsideRecord[] }> {
  const { doc: stored, setAside } = await readDocSettingAside(deps, DOCS.handoffs, HandoffsDocSchema);
  const { view, released } = handoffsView(stored, deps.now());
  const handoffs = status ? view.handoffs.filter((h) => h.status === status) : view.handoffs;
  return { handoffs, released, ...(setAside.length > 0 ? { set_aside: setAside } : {}) };
}

/**
 * A write of the handoffs document that also records every release a listing has been showing (after `fn`, which
 * judges its own handoff's expiry first, so a lapsed holder's heartbeat is told its claim expired). Afterwards
 * each entry the write added to a handoff's `events[]` is recorded as an event of the feed, with a sequence.
 */
async function updateHandoffs<R>(deps: CoordDeps, fn: (doc: HandoffsDoc, now: Date) => R): Promise<R> {
  // `fn` may run again after a conflict: the entries of the run that was written are the ones kept.
  let added: HandoffEntries[] = [];
  const inStep = recordsInStep(deps.store);
  const result = await updateDoc(
    deps,
    DOCS.handoffs,
    HandoffsDocSchema,
    (doc) => {
      const before = new Map(doc.handoffs.map((h) => [h.id, h.events.length]));
      const now = deps.now();
      const r = fn(doc, now);
      releaseExpired(doc, now);
      added = doc.handoffs
        .map((handoff) => ({ handoff, from: before.get(handoff.id) ?? 0 }))
        .filter((x) => x.handoff.events.length > x.from);
      return r;
    },
    // Called right after `fn`, in the same attempt: `added` is this attempt's.
    inStep ? () => handoffChangeEvents(added) : undefined,
  );
  if (!inStep) await recordHandoffEntries(deps.store, added);
  return result;
}

/** Claims a handoff for `by`; a live claim of another agent is refused naming the holder. */
export async function claimHandoff(deps: CoordDeps, input: ClaimInput): Promise<Handoff> {
  const ttlMs = input.ttl === undefined ? undefined : parseDuration(input.ttl);
  return updateHandoffs(deps, (doc, now) => {
    const h = find(doc, input.id);
    refuseClosed(h, 'claim');
    if (claimExpired(h, now)) releaseExpired({ handoffs: [h] }, now);
    if (h.status === 'claimed' && h.claimed_by !== input.by) {
      throw new RefusedError(
        `handoff '${h.id}' is already claimed by '${h.claimed_by}' ${holderText(h)}`,
        {
          id: h.id,
          holder: h.claimed_by,
          claim_expires_at: h.claim_expires_at ?? null,
          rule: 'single_holder',
        },
        409,
      );
    }
    const at = now.toISOString();
    h.status = 'claimed';
    h.claimed_by = input.by;
    h.claimed_at = at;
    h.last_heartbeat_at = at;
    if (input.ttl === undefined) delete h.claim_ttl;
    else h.claim_ttl = input.ttl;
    h.claim_expires_at = ttlMs === undefined ? null : new Date(now.getTime() + ttlMs).toISOString();
    h.updated_at = at;
    h.events.push(event(at, input.by, 'claim', input.ttl ? `ttl ${input.ttl}` : 'no ttl'));
    return h;
  });
}

/** Renews the claim for its holder (TTL given, else the claim's own); others and lapsed claims are refused. */
export async function heartbeatHandoff(deps: CoordDeps, input: ClaimInput): Promise<Handoff> {
  const ttlMs = input.ttl === undefined ? undefined : parseDuration(input.ttl);
  return updateHandoffs(deps, (doc, now) => {
    const h = find(doc, input.id);
    refuseClosed(h, 'heartbeat');
    if (h.status !== 'claimed')
      throw new RefusedError(
        `handoff '${h.id}' is not claimed; claim it first`,
        { id: h.id, status: h.status, rule: 'claimed' },
        409,
      );
    if (h.claimed_by !== input.by)
      throw new RefusedError(
        `handoff '${h.id}' is claimed by '${h.claimed_by}', not '${input.by}'; only the holder may heartbeat`,
        { id: h.id, holder: h.claimed_by, by: input.by, rule: 'holder_only' },
        409,
      );
    if (claimExpired(h, now))
      throw new RefusedError(
        `the claim of '${h.id}' by '${h.claimed_by}' expired at ${h.claim_expires_at}; claim it again`,
        { id: h.id, claim_expires_at: h.claim_expires_at, rule: 'claim_live' },
        409,
      );
    const ttl = input.ttl ?? h.claim_ttl;
    const ms = ttlMs ?? (h.claim_ttl ? parseDuration(h.claim_ttl) : undefined);
    const at = now.toISOString();
    if (ttl === undefined) delete h.claim_ttl;
    else h.claim_ttl = ttl;
    h.claim_expires_at = ms === undefined ? null : new Date(now.getTime() + ms).toISOString();
    h.last_heartbeat_at = at;
    h.updated_at = at;
    h.events.push(event(at, input.by, 'heartbeat', ttl ? `ttl ${ttl}` : 'no ttl'));
    return h;
  });
}

/** Closes a handoff (completed or cancelled); a live claim of another agent is refused. */
async function closeHandoff(
  deps: CoordDeps,
  input: { id: string; by: string; note?: string },
  to: 'completed' | 'cancelled',
): Promise<Handoff> {
  const verb = to === 'completed' ? 'complete' : 'cancel';
  return updateHandoffs(deps, (doc, now) => {
    const h = find(doc, input.id);
    refuseClosed(h, verb);
    const liveOther = h.status === 'claimed' && !claimExpired(h, now) && h.claimed_by !== input.by;
    // The creator may cancel what it handed off even while someone holds it.
    if (liveOther && !(to === 'cancelled' && h.created_by === input.by)) {
      throw new RefusedError(
        `cannot ${verb} handoff '${h.id}': it is claimed by '${h.claimed_by}' ${holderText(h)}`,
        { id: h.id, holder: h.claimed_by, by: input.by, rule: 'holder_only' },
        409,
      );
    }
    const at = now.toISOString();
    clearClaim(h);
    h.status = to;
    if (to === 'completed') Object.assign(h, { completed_by: input.by, completed_at: at });
    else Object.assign(h, { cancelled_by: input.by, cancelled_at: at });
    h.updated_at = at;
    h.events.push(event(at, input.by, verb, input.note));
    return h;
  });
}

export const completeHandoff = (deps: CoordDeps, input: { id: string; by: string; note?: string }) =>
  closeHandoff(deps, input, 'completed');
export const cancelHandoff = (deps: CoordDeps, input: { id: string; by: string; note?: string }) =>
  closeHandoff(deps, input, 'cancelled');
