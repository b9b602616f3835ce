import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  isInside,
  NotFoundError,
  RefusedError,
  randomHex,
  realpathOrUndefined,
  runGit,
  ValidationError,
} from '../infra/index.js';
import { touchAgent } from './agents.js';
import { recordAclEvent } from './events.js';
import { checkAgentId, checkTaskId } from './liveness.js';
import { readAcl } from './records.js';
import type { RepoTarget } from './repository-ref.js';
import { checkEnvFileFree, envEntries, writeEnvFile } from './worktrees-env.js';
import {
  checkBranchName,
  commonDirOf,
  gitDirOfWorktree,
  gitRefused,
  listGitWorktrees,
  locateWorktree,
  type WorktreeState,
} from './worktrees-git.js';
import {
  applyFileHooks,
  type HookReport,
  type PostCreate,
  planHooks,
  runHookCommand,
} from './worktrees-hooks.js';
import { allowedRoots, prepareWorktreePath, type WorktreeLayout, worktreesRoot } from './worktrees-layout.js';
import { leasePorts, releasePorts, type WorktreePorts } from './worktrees-ports.js';
import {
  eventData,
  readWorktreeRecords,
  updateWorktrees,
  type WorktreeDeps,
  type WorktreeRecord,
  WorktreesDocSchema,
  worktreesDoc,
} from './worktrees-record.js';

/** The application config's part: the layout and `coordination.worktree*`. */
export interface WorktreeConfig {
  layout: WorktreeLayout;
  postCreate?: PostCreate;
  /** `coordination.worktree_per_task`. */
  perTask?: boolean;
  /** `coordination.worktree.ports`: ports each worktree leases. */
  ports?: WorktreePorts;
  /** `coordination.worktree.env`: templates written with the ports to the worktree's `.env.hub`. */
  env?: Record<string, string>;
}

export interface CreateWorktreeInput {
  target: RepoTarget;
  agentId: string;
  taskId: string;
  branch: string;
  /** Commit to start `branch` from when it does not exist yet; without it a missing branch is refused. */
  base?: string;
}

export interface CreateWorktreeResult {
  worktree: WorktreeRecord;
  created_branch: boolean;
  post_create: HookReport;
  /** Ports leased to the worktree (`coordination.worktree.ports`; empty without it). */
  ports: number[];
  /** The `.env.hub` written into the worktree (null when neither ports nor env are configured). */
  env_file: string | null;
}

/** A record with where it stands now. */
export type WorktreeView = WorktreeRecord & { state: WorktreeState; current_path: string | null };

/** The real checkout of a repository; worktrees are made from it. */
export function mainCheckout(target: RepoTarget): string {
  if (!target.root)
    throw new RefusedError(
      `repository ${target.id} is not checked out here; clone it before making worktrees of it`,
      { field: 'repository', value: target.id, rule: 'checked_out' },
      409,
    );
  return target.root;
}

const refuseHeld = (branch: string, at: string) =>
  new RefusedError(
    `branch '${branch}' is already checked out in the worktree at ${at}; git allows a branch in one worktree at a time`,
    { field: 'branch', value: branch, rule: 'branch_checked_out', checked_out_at: at },
    409,
  );

/**
 * `worktree create`: `git worktree add <worktrees>/<agent>/<repo key>/<task> <branch>` in the repository's real
 * checkout, the post_create hooks, then one atomic update of `worktrees/<repo key>`. The branch must exist, or
 * `base` names where to start it (`git worktree add -b`). Nothing is left behind on failure: a failing hook or
 * record removes the fresh worktree (and the branch, when this call created it).
 */
export async function createWorktree(
  deps: WorktreeDeps,
  cfg: WorktreeConfig,
  input: CreateWorktreeInput,
): Promise<CreateWorktreeResult> {
  const { target, agentId, taskId, branch, base } = input;
  checkAgentId(agentId);
  checkTaskId(taskId);
  const main = mainCheckout(target);
  await checkBranchName(branch, main);
  if (base?.startsWith('-'))
    throw new ValidationError(`base: '${base}' would be read as an option`, {
      field: 'base',
      value: base,
      rule: 'commit',
    });
  const path = prepareWorktreePath(worktreesRoot(cfg.layout), agentId, target.key, taskId);
  const plan = await planHooks(main, cfg.postCreate);
  const [common, entries, existing, records] = await Promise.all([
    commonDirOf(main),
    listGitWorktrees(main),
    runGit(['rev-parse', '-q', '--verify', `refs/heads/${branch}`], { cwd: main }),
    readAcl(deps, worktreesDoc(target.key), WorktreesDocSchema),
  ]);
  const held = entries.find((e) => e.branch === `refs/heads/${branch}`);
  if (held) throw refuseHeld(branch, held.path);
  const stale = staleIds(records.worktrees, deps.host);
  const taken = sameTask(records.worktrees, agentId, taskId, stale);
  if (taken) throw refuseTaken(taken);
  const exists = existing.code === 0;
  if (exists && base !== undefined)
    throw new ValidationError(`base: branch '${branch}' exists already; base only starts a missing branch`, {
      field: 'base',
      value: base,
      rule: 'missing_branch',
    });
  if (!exists && base === undefined)
    throw new NotFoundError(
      `branch: '${branch}' does not exist in ${target.id}; allocate it first, or give base to start it from a commit`,
      { field: 'branch', value: branch, rule: 'existing_branch' },
    );
  const args = exists
    ? ['worktree', 'add', '--', path, branch]
    : ['worktree', 'add', '-b', branch, '--', path, await baseCommit(main, base!)];
  const added = await addWorktree(args, main, path);
  if (added.code !== 0) {
    const m =
      /already checked out at '([^']+)'/.exec(added.stderr) ??
      /is already used by worktree at '([^']+)'/.exec(added.stderr);
    throw m ? refuseHeld(branch, m[1]!) : gitRefused(`git worktree add ${branch}`, added.stderr, main);
  }
  const real = realpathSync(path);
  const rollback = async () => {
    await runGit(['worktree', 'remove', '--force', '--', real], { cwd: main });
    if (!exists) await runGit(['branch', '-D', '--', branch], { cwd: main });
  };
  let created: {
    record: WorktreeRecord;
    files: Pick<HookReport, 'symlinked' | 'copied'>;
    env: Array<[string, string]>;
    envFile: string | null;
  };
  const id = `wt-${randomHex(6)}`;
  let leased = false;
  try {
    const wantsEnv = cfg.ports !== undefined || Object.keys(cfg.env ?? {}).length > 0;
    if (wantsEnv) checkEnvFileFree(real, branch);
    const files = applyFileHooks(real, plan);
    // Ports first (one atomic update of this machine's ports document), then the record that holds them.
    const ports = cfg.ports
      ? await leasePorts(deps, cfg.ports, {
          worktree_id: id,
          repository: target.id,
          agent_id: agentId,
          task_id: taskId,
          path: real,
        })
      : [];
    leased = ports.length > 0;
    const env = envEntries(cfg.env, { agent_id: agentId, task_id: taskId, ports });
    const envFile = wantsEnv ? await writeEnvFile(real, env, { worktree_id: id }) : null;
    const now = deps.now().toISOString();
    const record: WorktreeRecord = {
      id,
      path: real,
      repository: target.id,
      branch,
      agent_id: agentId,
      task_id: taskId,
      status: 'active',
      common_dir: common,
      git_dir: gitDirOfWorktree(real) ?? '',
      host: deps.host,
      adopted: false,
      hooked: [...files.symlinked, ...files.copied],
      ...(ports.length ? { ports } : {}),
      created_at: now,
      updated_at: now,
    };
    await updateWorktrees(deps, target.key, (doc) => {
      const clash = sameTask(doc.worktrees, agentId, taskId, stale);
      if (clash) throw refuseTaken(clash);
      // A record of a worktree git no longer knows, at this path or for this task, is replaced.
      const replaced = (w: WorktreeRecord) =>
        stale.has(w.id) && (w.path === real || (w.agent_id === agentId && w.task_id === taskId));
      doc.worktrees = [...doc.worktrees.filter((w) => !replaced(w)), record];
    });
    created = { record, files, env, envFile };
  } catch (err) {
    if (leased) await releasePorts(deps, deps.host, id).catch(() => undefined);
    await rollback();
    throw err;
  }
  // Recorded: from here the worktree stays; the command's outcome is reported, not undone.
  const { record, files, env, envFile } = created;
  // The command sees what .env.hub holds, so a hook that starts or prepares a server uses the worktree's ports.
  const command = cfg.postCreate?.command
    ? await runHookCommand(
        real,
        cfg.postCreate.command,
        { ...deps.env, ...Object.fromEntries(env) },
        cfg.postCreate.timeout_ms,
      )
    : null;
  await Promise.all([
    recordAclEvent(deps, 'WorktreeCreated', target.id, eventData(record, { created_branch: !exists })),
    touchAgent(deps, agentId, { note: taskId }),
  ]);
  return {
    worktree: record,
    created_branch: !exists,
    post_create: { ...files, command },
    ports: record.ports ?? [],
    env_file: envFile,
  };
}

/** What `git worktree add` says when another add in the same repository is half-way: worth another try. */
const TRANSIENT_ADD = /failed to read .*worktrees|could not lock|unable to create .*\.lock|cannot lock ref/i;

/**
 * `git worktree add`, tried again (up to 5 times, after a random pause) when it fails because a concurrent add in
 * the same repository was half-way (git reads every worktree's admin folder, one of which lacks its files yet),
 * and only while the target folder was not made.
 */
async function addWorktree(args: string[], main: string, path: string) {
  for (let round = 1; ; round++) {
    const r = await runGit(args, { cwd: main });
    if (r.code === 0 || round >= 5 || !TRANSIENT_ADD.test(r.stderr) || existsSync(path)) return r;
    await new Promise((done) => setTimeout(done, 20 + Math.random() * 80 * round));
  }
}

async function baseCommit(main: string, base: string): Promise<string> {
  const r = await runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${base}^{commit}`], {
    cwd: main,
  });
  if (r.code !== 0)
    throw new NotFoundError(`base: '${base}' is not a commit of the repository`, {
      field: 'base',
      value: base,
      rule: 'commit',
    });
  return r.stdout.trim();
}

/** Ids of this machine's records whose worktree git no longer knows: a new worktree may take their place. */
function staleIds(records: readonly WorktreeRecord[], host: string): Set<string> {
  return new Set(
    records.filter((r) => r.host === host && locateWorktree(r, host).state === 'pruned').map((r) => r.id),
  );
}

function sameTask(records: readonly WorktreeRecord[], agentId: string, taskId: string, stale: Set<string>) {
  return records.find((r) => r.agent_id === agentId && r.task_id === taskId && !stale.has(r.id));
}

const refuseTaken = (r: WorktreeRecord) =>
  new RefusedError(
    `agent ${r.agent_id} already has worktree ${r.id} for task ${r.task_id} of ${r.repository} at ${r.path}`,
    { field: 'task_id', value: r.task_id, rule: 'one_worktree_per_task', holder: r },
    409,
  );

/**
 * `coordination.worktree_per_task`: the worktree side of branch allocation. When the config asks for a worktree
 * per task, allocation calls this after it has made the branch; it creates the task's worktree, or returns the
 * one already recorded for the same agent, task and branch (allocation may be retried). Null when the setting is
 * off.
 */
export async function createTaskWorktree(
  deps: WorktreeDeps,
  cfg: WorktreeConfig,
  input: CreateWorktreeInput,
): Promise<CreateWorktreeResult | null> {
  if (!cfg.perTask) return null;
  const { worktrees } = await readAcl(deps, worktreesDoc(input.target.key), WorktreesDocSchema);
  const mine = worktrees.find(
    (w) => w.agent_id === input.agentId && w.task_id === input.taskId && w.branch === input.branch,
  );
  if (mine && locateWorktree(mine, deps.host).state !== 'pruned')
    return {
      worktree: mine,
      created_branch: false,
      post_create: { symlinked: [], copied: [], command: null },
      ports: mine.ports ?? [],
      env_file: null,
    };
  return createWorktree(deps, cfg, input);
}

/** `worktree list`: every record (of one repository, agent or task) with where it stands; reads only. */
export async function listWorktrees(
  deps: WorktreeDeps,
  filter: { target?: RepoTarget; agentId?: string; taskId?: string } = {},
): Promise<WorktreeView[]> {
  const records = await readWorktreeRecords(deps, filter.target?.key);
  return records
    .filter(
      (r) =>
        (filter.agentId === undefined || r.agent_id === filter.agentId) &&
        (filter.taskId === undefined || r.task_id === filter.taskId),
    )
    .map((r) => ({ ...r, ...locateWorktree(r, deps.host) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface AdoptWorktreeInput {
  target: RepoTarget;
  /** Folder of the checkout (absolute, or relative to `cwd`). */
  path: string;
  cwd: string;
  agentId: string;
  taskId: string;
}

/**
 * `worktree adopt`: records a checkout made without hub. It must be the top of a linked worktree of that
 * repository (same git common dir; the main checkout itself is refused, since gc could then remove it), inside
 * the workspace or a folder trusted config allows. Adopting the same checkout again for the same agent and task
 * answers the record (`adopted: false`).
 */
export async function adoptWorktree(
  deps: WorktreeDeps,
  cfg: WorktreeConfig,
  input: AdoptWorktreeInput,
): Promise<{ worktree: WorktreeRecord; adopted: boolean }> {
  const { target, agentId, taskId } = input;
  checkAgentId(agentId);
  checkTaskId(taskId);
  const main = mainCheckout(target);
  const given = isAbsolute(input.path) ? input.path : resolve(input.cwd, input.path);
  const real = realpathOrUndefined(given);
  const field = { field: 'path', value: input.path };
  if (!real) throw new NotFoundError(`path: '${input.path}' does not exist`, { ...field, rule: 'exists' });
  if (!allowedRoots(cfg.layout).some((r) => isInside(r, real)))
    throw new RefusedError(`path: '${input.path}' lies outside the workspace ${cfg.layout.workspaceRoot}`, {
      ...field,
      rule: 'inside_workspace',
    });
  const r = await runGit(
    ['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir', '--show-toplevel'],
    { cwd: real },
  );
  const [commonOut, gitDirOut, topOut] = r.stdout.trim().split('\n');
  if (r.code !== 0 || !topOut)
    throw new RefusedError(`path: '${input.path}' is not a git checkout`, {
      ...field,
      rule: 'worktree_of_repository',
    });
  const real3 = (p: string | undefined) => (p === undefined ? '' : (realpathOrUndefined(p) ?? p));
  const [common, gitDir, top] = [real3(commonOut), real3(gitDirOut), real3(topOut)];
  const mainCommon = await commonDirOf(main);
  if (common !== mainCommon)
    throw new RefusedError(
      `path: '${input.path}' is not a worktree of ${target.id} (its git common dir is ${common}, the repository's is ${mainCommon})`,
      { ...field, rule: 'worktree_of_repository' },
    );
  if (top !== real)
    throw new ValidationError(`path: '${input.path}' is inside a worktree; give its top folder ${top}`, {
      ...field,
      rule: 'worktree_top',
    });
  if (gitDir === common || gitDirOfWorktree(real) !== gitDir)
    throw new RefusedError(
      `path: '${input.path}' is the main checkout of ${target.id}, not a linked worktree`,
      {
        ...field,
        rule: 'linked_worktree',
      },
    );
  const head = await runGit(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: real });
  const branch = head.code === 0 ? head.stdout.trim() : null;
  const now = deps.now().toISOString();
  const record: WorktreeRecord = {
    id: `wt-${randomHex(6)}`,
    path: real,
    repository: target.id,
    branch,
    agent_id: agentId,
    task_id: taskId,
    status: 'active',
    common_dir: common,
    git_dir: gitDir,
    host: deps.host,
    adopted: true,
    hooked: [],
    created_at: now,
    updated_at: now,
  };
  const { worktrees } = await readAcl(deps, worktreesDoc(target.key), WorktreesDocSchema);
  const stale = staleIds(worktrees, deps.host);
  const out = await updateWorktrees(deps, target.key, (doc) => {
    const same = doc.worktrees.find((w) => w.git_dir === gitDir && w.host === deps.host && !stale.has(w.id));
    if (same && same.agent_id === agentId && same.task_id === taskId)
      return { worktree: same, adopted: false };
    if (same)
      throw new RefusedError(
        `worktree ${same.path} is recorded already as ${same.id} of agent ${same.agent_id} for task ${same.task_id}`,
        { ...field, rule: 'one_record_per_worktree', holder: same },
        409,
      );
    const clash = sameTask(doc.worktrees, agentId, taskId, stale);
    if (clash) throw refuseTaken(clash);
    doc.worktrees = [...doc.worktrees.filter((w) => !stale.has(w.id) || w.git_dir !== gitDir), record];
    return { worktree: record, adopted: true };
  });
  if (out.adopted) await recordAclEvent(deps, 'WorktreeAdopted', target.id, eventData(out.worktree));
  await touchAgent(deps, agentId, { note: taskId });
  return out;
}
