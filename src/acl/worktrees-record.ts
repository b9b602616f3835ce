import * as z from 'zod';
import { HubError } from '../infra/index.js';
import { ACL, type AclDeps, aclDocument, aclDocuments, readAcl, updateAcl } from './records.js';

/**
 * One worktree hub knows of (`worktrees/<repo key>`, `.hub/worktrees/<repo key>.json` on the local backend).
 * Its identity is git's: `common_dir` names the repository and `git_dir` (`<common>/worktrees/<name>`) the
 * worktree, which keeps its admin folder when it is moved, so a moved or pruned worktree is recognised.
 */
export const WorktreeRecordSchema = z.looseObject({
  id: z.string(),
  /** Real path where the worktree was created or adopted. */
  path: z.string(),
  repository: z.string(),
  /** Branch checked out; null for a detached HEAD (adopted). */
  branch: z.string().nullable(),
  agent_id: z.string(),
  task_id: z.string(),
  /** `active` until released (by a later coordination op); gc considers anything not live. */
  status: z.string().default('active'),
  expires_at: z.string().nullable().optional(),
  common_dir: z.string(),
  git_dir: z.string(),
  /** Machine that holds the checkout: records of shared state name worktrees on many machines. */
  host: z.string(),
  adopted: z.boolean().default(false),
  /** Repo-relative paths the post_create hooks made (their symlinks do not count as untracked work). */
  hooked: z.array(z.string()).default(() => []),
  /** Ports leased with the worktree (`coordination.worktree.ports`), released when it is destroyed or collected. */
  ports: z.array(z.number().int()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WorktreeRecord = z.infer<typeof WorktreeRecordSchema>;

/** What worktree operations need besides the store: the machine they run on and the environment of hooks. */
export interface WorktreeDeps extends AclDeps {
  /** Name of this machine (records of shared state name the machine holding each checkout). */
  host: string;
  /** Environment of the post_create command. */
  env: Record<string, string | undefined>;
}

export const WorktreesDocSchema = z.looseObject({
  worktrees: z.array(WorktreeRecordSchema).default(() => []),
});

/** The store name of a repository's worktrees document. */
export const worktreesDoc = (key: string) => aclDocument(ACL.worktrees, key);

/** Every record, of one repository's document or of all of them. */
export async function readWorktreeRecords(deps: AclDeps, key?: string): Promise<WorktreeRecord[]> {
  const names = key !== undefined ? [worktreesDoc(key)] : await aclDocuments(deps, ACL.worktrees);
  const out: WorktreeRecord[] = [];
  for (const name of names) out.push(...(await readAcl(deps, name, WorktreesDocSchema)).worktrees);
  return out;
}

/** The document key of a record's repository (`platform/identity` -> `platform~identity`). */
export const recordKey = (r: Pick<WorktreeRecord, 'repository'>) => r.repository.replace('/', '~');

export const eventData = (r: WorktreeRecord, extra: Record<string, unknown> = {}) => ({
  worktree_id: r.id,
  path: r.path,
  branch: r.branch,
  agent_id: r.agent_id,
  task_id: r.task_id,
  ...extra,
});

const CONFLICT_ROUNDS = 8;

/**
 * The atomic read-modify-write of a repository's worktrees document (`fn` may run more than once: keep it pure).
 * Local and memory stores serialize writers; on the http backend it is a compare-and-swap, and since the git work
 * happens on the client (the checkout is local), the record cannot be applied on the server: a conflict is
 * retried here, after a random pause, for CONFLICT_ROUNDS rounds of `updateAcl` (each with its own retries), so
 * agents creating worktrees of one repository at once all get recorded. CAS keeps it free of lost updates.
 */
export async function updateWorktrees<R>(
  deps: AclDeps,
  key: string,
  fn: (doc: z.output<typeof WorktreesDocSchema>) => R,
): Promise<R> {
  for (let round = 1; ; round++) {
    try {
      return await updateAcl(deps, worktreesDoc(key), WorktreesDocSchema, fn);
    } catch (err) {
      if (!(err instanceof HubError && err.code === 'conflict') || round >= CONFLICT_ROUNDS) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 40 * round));
    }
  }
}
