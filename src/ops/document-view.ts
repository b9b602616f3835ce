import { handoffsView } from '../coord/index.js';
import type { DocumentSnapshot } from './state-documents.js';

/** Views by document: how a whole-document GET shows what is stored, so it lists what every other surface lists. */
const VIEWS: Record<string, (stored: unknown, now: Date) => { view: unknown; released: string[] }> = {
  handoffs: handoffsView,
};

/** The earliest claim expiry after `now`: until then the view of that snapshot stays the same. */
function nextExpiry(body: unknown, now: number): number {
  let next = Number.POSITIVE_INFINITY;
  const list = (body as { handoffs?: unknown } | null)?.handoffs;
  if (!Array.isArray(list)) return next;
  for (const h of list) {
    const at = (h as { status?: unknown; claim_expires_at?: unknown } | null) ?? {};
    if (at.status !== 'claimed' || typeof at.claim_expires_at !== 'string') continue;
    const t = Date.parse(at.claim_expires_at);
    if (t > now && t < next) next = t;
  }
  return next;
}

const memo = new WeakMap<DocumentSnapshot, { at: number; until: number; served: DocumentSnapshot }>();

/**
 * The snapshot a whole-document GET serves at `now`: the stored one, or (handoffs with an expired claim) the view
 * with those claims released, under the stored document's ETag: compare-and-swap protects the stored version,
 * so an If-Match taken from this GET still matches on the next PUT. `viewed` tells the caller the body is not
 * the stored bytes, so it must not answer 304 to an If-None-Match of that ETag.
 */
export function viewedSnapshot(
  name: string,
  snap: DocumentSnapshot,
  now: Date = new Date(),
): { snap: DocumentSnapshot; viewed: boolean } {
  const view = VIEWS[name];
  if (!view || snap.etag === undefined) return { snap, viewed: false };
  const t = now.getTime();
  const hit = memo.get(snap);
  if (hit && t >= hit.at && t < hit.until) return { snap: hit.served, viewed: hit.served !== snap };
  const { view: body, released } = view(snap.body, now);
  let served = snap;
  if (released.length > 0) {
    const text = JSON.stringify(body);
    served = { body, text, bytes: Buffer.from(text, 'utf8'), etag: snap.etag };
  }
  memo.set(snap, { at: t, until: nextExpiry(snap.body, t), served });
  return { snap: served, viewed: served !== snap };
}
