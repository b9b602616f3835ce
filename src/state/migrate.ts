import { HubError, RefusedError } from '../infra/index.js';
import { DERIVED_EVENTS_DOCUMENT } from './backends/local.js';
import { etagOf } from './etag.js';
import { KNOWN_COLLECTIONS, KNOWN_PLAIN_DOCUMENTS } from './known-documents.js';
import type { DocumentStore } from './store.js';

export interface MigrateOptions {
  /** Replace target documents that differ from the source's (never deletes one the source lacks). */
  overwrite: boolean;
  /** Called after each document (progress). */
  onDocument?: (name: string) => void;
}

export interface MigrateReport {
  /** Documents the source holds. */
  documents: number;
  /** Written to the target (absent there before). */
  copied: number;
  /** Replaced in the target (it held another version; only with overwrite). */
  overwritten: number;
  /** Already equal in the target (same ETag): a resumed or repeated migration skips them. */
  unchanged: number;
  /** In the target only: kept as they are. */
  target_only: number;
  /** Re-read from the target after the copy with the source's ETag. */
  verified: number;
  /** Recorded events the source's log holds (its legacy `coord.events` document's, when its log has none). */
  events: number;
  /** Of those, stored into the target's log: with their sequences, or (an http target) numbered by its server. */
  events_copied: number;
  /** True when the target's server numbered the copied events itself (http target). */
  events_renumbered?: boolean;
}

/**
 * Every document name a store holds: `listAll` where the backend can enumerate a workspace, and always the known
 * plain documents and the documents `list` gives for every known collection. The derived `events` document of the
 * local backend is not a stored document and is left out.
 */
export async function storedDocumentNames(store: DocumentStore): Promise<string[]> {
  const names = new Set<string>(KNOWN_PLAIN_DOCUMENTS);
  if (store.listAll) for (const n of await store.listAll()) names.add(n);
  if (store.list) for (const c of KNOWN_COLLECTIONS) for (const n of await store.list(c)) names.add(n);
  names.delete(DERIVED_EVENTS_DOCUMENT);
  return [...names].sort();
}

/** Documents (value and the ETag computed here from it) of `names` that exist in `store`. */
async function snapshot(
  store: DocumentStore,
  names: string[],
): Promise<Map<string, { value: unknown; etag: string }>> {
  const out = new Map<string, { value: unknown; etag: string }>();
  for (const name of names) {
    const { value } = await store.read(name);
    const etag = etagOf(value);
    if (etag) out.set(name, { value, etag });
  }
  return out;
}

/**
 * Copies every document of `from` to `to` with compare-and-swap writes, then re-reads each from `to` and compares
 * its ETag with the source's. Refuses, before any write, a target holding documents that are not identical to the
 * source's unless `overwrite`; identical ones are skipped, so a migration that stopped half-way is resumed by
 * running it again.
 */
export async function migrateState(
  from: DocumentStore,
  to: DocumentStore,
  opts: MigrateOptions,
): Promise<MigrateReport> {
  const source = await snapshot(from, await storedDocumentNames(from));
  const target = await snapshot(to, await storedDocumentNames(to));
  const differing = [...source].filter(([n, d]) => target.has(n) && target.get(n)!.etag !== d.etag);
  const targetOnly = [...target.keys()].filter((n) => !source.has(n));
  if (!opts.overwrite && (differing.length > 0 || targetOnly.length > 0)) {
    const sample = [...differing.map(([n]) => n), ...targetOnly].slice(0, 10);
    throw new RefusedError(
      `the ${to.backend} target already holds ${differing.length} document(s) that differ from the ${from.backend} source and ${targetOnly.length} the source lacks (${sample.join(', ')}); pass --overwrite to replace the differing ones (none is deleted), or migrate to an empty target`,
      {
        field: 'overwrite',
        value: false,
        differing: differing.length,
        target_only: targetOnly.length,
        documents: sample,
        rule: 'target_empty',
      },
      409,
    );
  }
  const report: MigrateReport = {
    documents: source.size,
    copied: 0,
    overwritten: 0,
    unchanged: 0,
    target_only: targetOnly.length,
    verified: 0,
    events: 0,
    events_copied: 0,
  };
  for (const [name, doc] of source) {
    const current = target.get(name);
    if (current?.etag === doc.etag) report.unchanged++;
    else {
      // If-Match is what the target held when it was read: a writer that changed it meanwhile makes this a
      // conflict, not a silent overwrite.
      await to.write(name, doc.value, current ? current.etag : '""');
      if (current) report.overwritten++;
      else report.copied++;
    }
    opts.onDocument?.(name);
  }
  const mismatched: string[] = [];
  for (const [name, doc] of source) {
    const back = await to.read(name);
    if (etagOf(back.value) === doc.etag && back.etag === doc.etag) report.verified++;
    else mismatched.push(name);
  }
  if (mismatched.length > 0)
    throw new HubError(
      'internal',
      `the copy of ${mismatched.length} document(s) read back from the ${to.backend} target differs from the source (${mismatched.slice(0, 10).join(', ')}); run the migration again`,
      { ...report, mismatched: mismatched.slice(0, 10), rule: 'migrate_verify' },
    );
  await copyEvents(from, to, report);
  return report;
}

/**
 * Copies the source's events log into the target's (the old `coord.events` document of a source that never
 * recorded into its log is read and migrated here). A target whose log already holds the same last sequence is a
 * resumed migration: left as it is.
 */
async function copyEvents(from: DocumentStore, to: DocumentStore, report: MigrateReport): Promise<void> {
  if (!from.events || !to.events) return;
  const src = await from.events.read();
  report.events = src.events.length;
  if (src.events.length === 0) return;
  if (to.events.import) {
    try {
      await to.events.import(src.events);
    } catch (err) {
      const resumed =
        err instanceof RefusedError &&
        err.details?.rule === 'log_empty' &&
        (await to.events.read({ after: src.last_seq - 1 })).last_seq === src.last_seq;
      if (resumed) return;
      throw err;
    }
    report.events_copied = src.events.length;
    return;
  }
  for (const e of src.events) {
    const { seq: _seq, ...event } = e;
    await to.events.append(event);
    report.events_copied++;
  }
  report.events_renumbered = true;
}
