import * as z from 'zod';
import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { NotFoundError, RefusedError, randomHex } from '../infra/index.js';
import {
  ConflictSchema,
  MERGE_STATUSES,
  type MergeRequest,
  type MergeStatus,
  MergesDocSchema,
  mergesDocument,
  PromotionSchema,
  RegeneratedSchema,
  readAllMerges,
  ValidationSchema,
} from './records.js';

/**
 * Succeeded (and, apart, cancelled) requests kept per repository document, newest last; older ones are dropped on
 * the next enqueue, so a long-lived queue stays far below a document store's item limit (DynamoDB: 400 KB). Every
 * other status is kept.
 */
export const MAX_FINISHED_MERGES = 200;
/** The ended states whose oldest records are dropped past MAX_FINISHED_MERGES each. */
const PRUNED_STATUSES: readonly MergeStatus[] = ['succeeded', 'cancelled'];
/** Longest merge id: `resolve-<merge_id>` must still be a task id (at most 128 characters). */
const MAX_MERGE_ID = 96;

/** `feature/login` into `main` -> `feature-login-into-main-3f9a1c2b`: readable, unique, `[A-Za-z0-9_.-]+`. */
export function newMergeId(source: string, target: string): string {
  const slug = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  const stem = `${slug(source)}-into-${slug(target)}`.slice(0, MAX_MERGE_ID - 9).replace(/[-.]+$/, '');
  return `${stem || 'merge'}-${randomHex(4)}`;
}

export interface EnqueueInput {
  /** Repository id (`project/repo` or `self`) and its document key. */
  repository: string;
  key: string;
  source_branch: string;
  target_branch: string;
  node_id?: string;
  graph_id?: string;
  agent_id?: string;
  source_sha?: string;
  target_sha?: string;
}

export interface EnqueueResult {
  merge: MergeRequest;
  /** False when the same source was already queued or running into the same target (that request is returned). */
  created: boolean;
}

/**
 * Appends a `queued` request to the repository's queue in one atomic update. The same source already waiting (or
 * being integrated) into the same target is returned instead of queued twice: integration takes the branch's head
 * when it runs, so a second request would merge nothing new.
 */
export async function enqueueMerge(deps: CoordDeps, input: EnqueueInput): Promise<EnqueueResult> {
  const at = deps.now().toISOString();
  const merge_id = newMergeId(input.source_branch, input.target_branch);
  const { key, ...fields } = input;
  return updateDoc(deps, mergesDocument(key), MergesDocSchema, (doc) => {
    const same = doc.merges.find(
      (m) =>
        m.source_branch === input.source_branch &&
        m.target_branch === input.target_branch &&
        (m.status === 'queued' || m.status === 'running'),
    );
    if (same) return { merge: structuredClone(same), created: false };
    const merge: MergeRequest = {
      merge_id,
      ...fields,
      status: 'queued',
      attempts: 0,
      created_at: at,
      updated_at: at,
    };
    doc.merges.push(merge);
    for (const status of PRUNED_STATUSES) {
      const ended = doc.merges.filter((m) => m.status === status);
      if (ended.length <= MAX_FINISHED_MERGES) continue;
      const drop = new Set(ended.slice(0, ended.length - MAX_FINISHED_MERGES));
      doc.merges = doc.merges.filter((m) => !drop.has(m));
    }
    return { merge: structuredClone(merge), created: true };
  });
}

/** The states a request leaves `running` for. */
export const FINISHED_STATUSES = ['succeeded', 'failed', 'conflict', 'validation_failed'] as const;
/** The states `merge retry` takes a request back to the queue from. */
export const RETRYABLE_STATUSES: readonly MergeStatus[] = ['failed', 'conflict', 'validation_failed'];
/** The states `merge cancel` withdraws a request from: waiting, or stopped (a refused request stays queued). */
export const CANCELLABLE_STATUSES: readonly MergeStatus[] = ['queued', ...RETRYABLE_STATUSES];

/** What one integration concluded: the fields it sets on the request. */
export const MergeResultSchema = z.strictObject({
  base_sha: z.string().optional(),
  commit_sha: z.string().optional(),
  error_message: z.string().max(4000).optional(),
  retryable: z.boolean().optional(),
  conflict: ConflictSchema.optional(),
  validation: ValidationSchema.optional(),
  regenerated: RegeneratedSchema.optional(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;

/**
 * One state change of a request, applied atomically where the queue is kept: `claim` (queued -> running),
 * `finish` (running -> an end state with its result), `requeue` (failed|conflict|validation_failed -> queued),
 * `promoted` (a succeeded request records a promotion) and `cancel` (queued|failed|conflict|validation_failed ->
 * cancelled). Plain data, so a hub server can apply it for its clients.
 */
export const TransitionSchema = z.strictObject({
  action: z.enum(['claim', 'finish', 'requeue', 'promoted', 'cancel']).describe('The state change.'),
  merge_id: z
    .string()
    .min(1)
    .optional()
    .describe('Request id; claim without it takes the oldest queued request.'),
  integrator: z
    .string()
    .max(200)
    .optional()
    .describe(
      'claim: who integrates (host:pid); requeue: the dead integrator of a running request (it must still be the one).',
    ),
  status: z.enum(FINISHED_STATUSES).optional().describe('finish: the end state.'),
  result: MergeResultSchema.optional().describe('finish: what the integration found.'),
  promotion: PromotionSchema.optional().describe('promoted: the promotion to record.'),
  by: z.string().min(1).max(128).optional().describe('cancel: who withdraws it (an agent id; default hub).'),
  reason: z.string().max(500).optional().describe('cancel: why (kept on the request).'),
});
export type Transition = z.infer<typeof TransitionSchema>;

const FROM: Record<Transition['action'], readonly MergeStatus[]> = {
  claim: ['queued'],
  finish: ['running'],
  requeue: RETRYABLE_STATUSES,
  promoted: ['succeeded'],
  cancel: CANCELLABLE_STATUSES,
};

const OUTCOME_FIELDS = [
  'error_message',
  'retryable',
  'conflict',
  'validation',
  'regenerated',
  'finished_at',
] as const;

function notFound(repository: string, mergeId: string | undefined): NotFoundError {
  return mergeId === undefined
    ? new NotFoundError(`repository: ${repository} has no queued merge request`, {
        field: 'repository',
        value: repository,
        rule: 'a queued merge request',
      })
    : new NotFoundError(`merge_id: '${mergeId}' is not a merge request of ${repository}`, {
        field: 'merge_id',
        value: mergeId,
        rule: 'an existing merge request',
        repository,
      });
}

/** The refusal of a state change the request's status does not allow (409, with the status and who runs it). */
export function wrongStatus(
  m: MergeRequest,
  action: string,
  allowed: readonly MergeStatus[],
  hint = '',
): RefusedError {
  const who = m.status === 'running' && m.integrator ? ` by ${m.integrator} since ${m.started_at}` : '';
  return new RefusedError(
    `merge_id: '${m.merge_id}' is ${m.status}${who}; ${action} needs ${allowed.join(' or ')}${hint}`,
    {
      field: 'merge_id',
      value: m.merge_id,
      rule: `status ${allowed.join('|')}`,
      status: m.status,
      ...(m.integrator ? { integrator: m.integrator } : {}),
    },
    409,
  );
}

/**
 * Applies one transition to the request in `merges/<key>` atomically and returns the request as it now stands.
 * Of two integrators claiming the same request, exactly one wins; the other is refused with the winner named.
 */
export async function transitionMerge(
  deps: CoordDeps,
  target: { id: string; key: string },
  t: Transition,
): Promise<MergeRequest> {
  const at = deps.now().toISOString();
  const from = FROM[t.action];
  return updateDoc(deps, mergesDocument(target.key), MergesDocSchema, (doc) => {
    const m =
      t.merge_id === undefined
        ? t.action === 'claim'
          ? doc.merges.find((x) => x.status === 'queued')
          : undefined
        : doc.merges.find((x) => x.merge_id === t.merge_id);
    if (!m) throw notFound(target.id, t.merge_id);
    // A running request whose integrator died goes back only while that same integrator still holds it.
    const stale = t.action === 'requeue' && m.status === 'running' && t.integrator !== undefined;
    if (stale && m.integrator !== t.integrator) throw wrongStatus(m, t.action, from);
    if (!stale && !from.includes(m.status)) throw wrongStatus(m, t.action, from, hintFor(m, t.action));
    m.updated_at = at;
    if (t.action === 'claim') {
      for (const f of OUTCOME_FIELDS) delete m[f];
      m.status = 'running';
      m.started_at = at;
      m.attempts = (m.attempts ?? 0) + 1;
      if (t.integrator) m.integrator = t.integrator;
    } else if (t.action === 'finish') {
      m.status = t.status ?? 'failed';
      m.finished_at = at;
      delete m.integrator;
      Object.assign(m, t.result ?? {});
    } else if (t.action === 'requeue') {
      for (const f of OUTCOME_FIELDS) delete m[f];
      delete m.integrator;
      m.status = 'queued';
    } else if (t.action === 'cancel') {
      delete m.integrator;
      m.cancelled_from = m.status;
      m.status = 'cancelled';
      m.cancelled_at = at;
      m.cancelled_by = t.by ?? 'hub';
      if (t.reason) m.cancel_reason = t.reason;
    } else if (t.promotion) {
      m.promotions = [...(m.promotions ?? []), t.promotion].slice(-20);
    }
    return structuredClone(m);
  });
}

/** What to do instead, when a request's status refuses a cancel. */
function hintFor(m: MergeRequest, action: Transition['action']): string {
  if (action !== 'cancel') return '';
  if (m.status === 'succeeded')
    return `: it has landed${m.commit_sha ? ` (${m.commit_sha.slice(0, 12)} on ${m.target_branch})` : ''}, so there is nothing to withdraw (revert the merge commit to undo it)`;
  if (m.status === 'cancelled')
    return `: it was cancelled already by ${m.cancelled_by ?? 'hub'} at ${m.cancelled_at ?? m.updated_at}`;
  if (m.status === 'running')
    return ': wait for the integration to end, then cancel it (merge retry takes back one whose integrator died)';
  return '';
}

/** Where a request is kept: its repository key and the request, found by id across every repository. */
export async function findMerge(
  deps: CoordDeps,
  mergeId: string,
  key?: string,
): Promise<{ key: string; merge: MergeRequest } | undefined> {
  const names = key !== undefined ? [mergesDocument(key)] : await mergeDocuments(deps);
  for (const name of names) {
    const m = (await readDoc(deps, name, MergesDocSchema)).merges.find((x) => x.merge_id === mergeId);
    if (m) return { key: name.slice(name.indexOf('/') + 1), merge: m };
  }
  return undefined;
}

async function mergeDocuments(deps: CoordDeps): Promise<string[]> {
  return deps.store.list ? (await deps.store.list('merges')).sort() : [];
}

export interface MergeListQuery {
  /** Repository id; only its requests. */
  repository?: string;
  key?: string;
  status?: MergeStatus;
  merge_id?: string;
  offset?: number;
  limit?: number;
}

export interface MergeList {
  merges: MergeRequest[];
  total: number;
  offset: number;
  /** Offset of the next page, null on the last. */
  next_offset: number | null;
  /** True when requests after this page exist (the paging convention's flag). */
  truncated: boolean;
}

/** Default page size of `merge status`. */
export const DEFAULT_MERGE_PAGE = 100;

/** Requests in queue order (repositories by key), filtered, one page of them. A pure read. */
export async function listMerges(deps: CoordDeps, q: MergeListQuery): Promise<MergeList> {
  const all =
    q.key !== undefined
      ? (await readDoc(deps, mergesDocument(q.key), MergesDocSchema)).merges
      : await readAllMerges(deps);
  const hits = all.filter(
    (m) =>
      (q.status === undefined || m.status === q.status) &&
      (q.merge_id === undefined || m.merge_id === q.merge_id),
  );
  const offset = q.offset ?? 0;
  const limit = q.limit ?? DEFAULT_MERGE_PAGE;
  const merges = hits.slice(offset, offset + limit);
  return {
    merges,
    total: hits.length,
    offset,
    next_offset: offset + merges.length < hits.length ? offset + merges.length : null,
    truncated: offset + merges.length < hits.length,
  };
}

export type MergeSummary = Record<MergeStatus, number> & { total: number };

/** How many requests stand in each state, over every repository (the agent operating view reads it). */
export async function mergeSummary(deps: CoordDeps): Promise<MergeSummary> {
  const out = Object.fromEntries([...MERGE_STATUSES.map((s) => [s, 0]), ['total', 0]]) as MergeSummary;
  for (const m of await readAllMerges(deps)) {
    out[m.status] += 1;
    out.total += 1;
  }
  return out;
}
