import { mapLimit } from '../infra/index.js';
import { type DocumentStore, updateDocument } from '../state/index.js';
import { type Commit, commitsAfter, commitsSince, repoGitState } from '../workspace/index.js';
import { handoffsView } from './handoffs.js';

/** The session document: where the last session's boundary lies and what it was about. */
export interface SessionDoc {
  boundary?: string;
  started_at?: string;
  updated_at?: string;
  project?: string;
  active_objective_id?: string | null;
  notes?: string;
  manifest_hash?: string;
  count?: number;
  /** HEAD of each repository at the boundary, so the next digest counts commits exactly. */
  heads?: Record<string, string>;
}

export const SESSION_DOCUMENT = 'session';

export interface RepoRef {
  id: string;
  root: string;
}

export interface RepoChange {
  repository: string;
  path: string;
  is_git_repo: boolean;
  branch: string | null;
  head: string | null;
  dirty: boolean;
  changes: number;
  commit_count: number;
  recent_subjects: string[];
  commits: Commit[];
  error?: string;
}

export interface Digest {
  since: string | null;
  first_session: boolean;
  manifest_changed: boolean;
  active_objective_id: string | null;
  repo_changes: RepoChange[];
}

interface ObjectiveLike {
  id: string;
  status?: string;
  updated_at?: string;
}

/** The objective a session works on: the one set on the session, else the most recently updated in_progress one. */
export function activeObjectiveId(
  session: SessionDoc | undefined,
  objectives: ObjectiveLike[],
): string | null {
  if (session?.active_objective_id && objectives.some((o) => o.id === session.active_objective_id))
    return session.active_objective_id;
  const live = objectives
    .filter((o) => o.status === 'in_progress')
    .sort((a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''));
  return live[0]?.id ?? null;
}

async function readList<T>(store: DocumentStore, name: string, key: string): Promise<T[]> {
  const doc = (await store.read<Record<string, unknown>>(name)).value;
  const list = doc?.[key];
  return Array.isArray(list) ? (list as T[]) : [];
}

/** Changes since the last session's boundary, read from git with bounded concurrency; never moves the boundary. */
export async function sessionDigest(
  store: DocumentStore,
  repos: RepoRef[],
  opts: { manifestHash: string; concurrency?: number },
): Promise<Digest> {
  const session = (await store.read<SessionDoc>(SESSION_DOCUMENT)).value;
  const since = session?.boundary ?? null;
  const objectives = await readList<ObjectiveLike>(store, 'objectives', 'objectives');
  const repo_changes = await mapLimit(repos, opts.concurrency ?? 8, async (r): Promise<RepoChange> => {
    const git = await repoGitState(r.root);
    const base = session?.heads?.[r.id];
    let log: { count: number; commits: Commit[] } = { count: 0, commits: [] };
    if (git.is_git_repo && git.head) {
      const exact = base ? await commitsAfter(r.root, base, 10) : undefined;
      log = exact ?? (await commitsSince(r.root, since ?? undefined, 10));
    }
    return {
      repository: r.id,
      path: r.root,
      is_git_repo: git.is_git_repo,
      branch: git.branch,
      head: git.head,
      dirty: git.dirty,
      changes: git.changes,
      commit_count: log.count,
      recent_subjects: log.commits.slice(0, 5).map((c) => c.subject),
      commits: log.commits,
      ...(git.error ? { error: git.error } : {}),
    };
  });
  return {
    since,
    first_session: !session?.boundary,
    manifest_changed: Boolean(session?.manifest_hash) && session?.manifest_hash !== opts.manifestHash,
    active_objective_id: activeObjectiveId(session, objectives),
    repo_changes,
  };
}

/** Moves the session boundary to `now` (a new session starts), keeping what was set on the session. */
export async function updateSession(
  store: DocumentStore,
  patch: Partial<
    Pick<SessionDoc, 'project' | 'active_objective_id' | 'notes' | 'manifest_hash' | 'heads'>
  > & {
    advance?: boolean;
  },
  opts: { now: Date; retries: number },
): Promise<SessionDoc> {
  const at = opts.now.toISOString();
  const { value } = await updateDocument<SessionDoc, void>(
    store,
    SESSION_DOCUMENT,
    (cur) => {
      const next: SessionDoc = { ...(cur ?? {}), updated_at: at };
      if (patch.project !== undefined) next.project = patch.project;
      if (patch.active_objective_id !== undefined) next.active_objective_id = patch.active_objective_id;
      if (patch.notes !== undefined) next.notes = patch.notes;
      if (patch.manifest_hash !== undefined) next.manifest_hash = patch.manifest_hash;
      if (patch.heads !== undefined) next.heads = { ...(cur?.heads ?? {}), ...patch.heads };
      if (patch.advance) {
        next.boundary = at;
        next.started_at = at;
        next.count = (cur?.count ?? 0) + 1;
      }
      return { value: next, result: undefined };
    },
    { retries: opts.retries },
  );
  return value;
}

export interface BeginEnvelope {
  ok: true;
  project: string | null;
  session: SessionDoc;
  active_objective: unknown;
  open_handoffs: unknown[];
  pending_approvals: unknown[];
  digest: Digest;
}

/** A bootstrap envelope for an agent starting work: digest since last time, then a new session boundary. */
export async function beginSession(
  store: DocumentStore,
  repos: RepoRef[],
  opts: { project?: string; manifestHash: string; now: Date; retries: number },
): Promise<Omit<BeginEnvelope, 'project'>> {
  const digest = await sessionDigest(store, repos, { manifestHash: opts.manifestHash });
  const objectives = await readList<ObjectiveLike>(store, 'objectives', 'objectives');
  // As listings show them: an expired claim is open again.
  const handoffs = handoffsView(
    { handoffs: await readList<{ status?: string }>(store, 'handoffs', 'handoffs') },
    opts.now,
  ).view.handoffs;
  const requests = await readList<{ status?: string }>(store, 'approvals', 'requests');
  const session = await updateSession(
    store,
    {
      project: opts.project,
      manifest_hash: opts.manifestHash,
      active_objective_id: digest.active_objective_id,
      heads: headsOf(digest),
      advance: true,
    },
    { now: opts.now, retries: opts.retries },
  );
  return {
    ok: true,
    session,
    active_objective: objectives.find((o) => o.id === digest.active_objective_id) ?? null,
    open_handoffs: handoffs.filter((h) => h.status === 'open' || h.status === 'claimed'),
    pending_approvals: requests.filter((r) => (r.status ?? 'pending') === 'pending'),
    digest,
  };
}

/** HEAD per repository from a digest, for the next boundary. */
export function headsOf(digest: Digest): Record<string, string> {
  return Object.fromEntries(digest.repo_changes.flatMap((c) => (c.head ? [[c.repository, c.head]] : [])));
}
