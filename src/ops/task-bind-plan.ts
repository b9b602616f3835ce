import {
  checkAllowedPrefix,
  checkBranchName,
  nameFromPattern,
  type RepoTarget,
  resolveClaimScope,
  resolveRepository,
  slugOf,
} from '../acl/index.js';
import { ValidationError } from '../infra/index.js';
import { aclTaskId, type TaskNode } from '../taskgraph/index.js';
import { repoDeps } from './acl-deps.js';
import { componentsOf } from './claim-ops.js';
import type { OpContext } from './context.js';

/** What bind-acl will take for a node, worked out (and checked) before anything is taken. */
export interface BindPlan {
  repository: string;
  /** The ACL task id: `<graph_id>.<node_id>`. */
  task_id: string;
  branch: string;
  patterns: string[];
  component?: string;
  /** The exact `hub ...` commands that do the same, in order (what --dry-run prints). */
  commands: string[];
}

export interface BindRequest {
  agent_id: string;
  repository?: string;
  branch?: string;
  base?: string;
  ttl?: string;
  pattern?: string[];
  patterns?: string[];
  component?: string;
}

/** The branch name: --branch as given, else coordination.branch_pattern (as branch allocate names it); checked. */
function branchName(ctx: OpContext, req: BindRequest, taskId: string, title: string): string {
  const { branch_pattern: pattern, allowed_branch_prefixes: prefixes } = ctx.appConfig().config.coordination;
  if (req.branch !== undefined)
    return checkAllowedPrefix(checkBranchName(req.branch, 'branch'), prefixes, 'branch');
  // A node id made from the title already says it: `agent/login.design-login`, not `...-design-login` twice.
  const slug = slugOf(title);
  const name = nameFromPattern(pattern, {
    task_id: taskId,
    slug: taskId.endsWith(`.${slug}`) ? '' : slug,
    agent_id: req.agent_id,
  });
  const from = { derived_from: 'coordination.branch_pattern', pattern };
  return checkAllowedPrefix(checkBranchName(name, 'branch', from), prefixes, 'branch', from);
}

/** One shell word: bare when plainly safe, else single-quoted; a value starting with `-` goes as `--flag=value`. */
function arg(flag: string, value: string): string {
  const safe = /^[A-Za-z0-9_./:@+,=-]+$/.test(value);
  const word = safe ? value : `'${value.replace(/'/g, `'\\''`)}'`;
  return value.startsWith('-') ? `--${flag}=${word}` : `--${flag} ${word}`;
}

/**
 * Plans a bind: the node's repository (or --repository, which must agree with it), the claim scope (--pattern,
 * else the node's patterns, else --component or the node's component; none refuses and says what to pass), the
 * branch name; and the commands. Every rule is checked here, before anything is taken.
 */
export async function planBind(
  ctx: OpContext,
  node: TaskNode,
  req: BindRequest,
): Promise<{ plan: BindPlan; target: RepoTarget }> {
  const ref = node.repository ?? req.repository;
  if (ref === undefined)
    throw new ValidationError(
      `repository: node ${node.graph_id}/${node.node_id} names no repository; pass --repository <project/repo>`,
      { field: 'repository', rule: 'required', node_id: node.node_id },
    );
  const target = await resolveRepository(repoDeps(ctx), ref);
  if (req.repository !== undefined && node.repository !== undefined) {
    const given = await resolveRepository(repoDeps(ctx), req.repository);
    if (given.id !== target.id)
      throw new ValidationError(
        `repository: node ${node.graph_id}/${node.node_id} is in ${target.id}, not ${given.id}`,
        { field: 'repository', value: req.repository, rule: 'node_repository', node_repository: target.id },
      );
  }
  const given = [...(req.pattern ?? []), ...(req.patterns ?? [])];
  const patterns = given.length > 0 ? given : (node.patterns ?? []);
  const component = req.component ?? (patterns.length === 0 ? node.component : undefined);
  if (patterns.length === 0 && component === undefined)
    throw new ValidationError(
      `pattern: node ${node.graph_id}/${node.node_id} names no patterns and no component to claim; pass --pattern <glob> (repeat for more) or --component <name>`,
      { field: 'pattern', rule: 'patterns_or_component', node_id: node.node_id },
    );
  const scope = resolveClaimScope(componentsOf(ctx, target), target, { component, patterns });
  const taskId = aclTaskId(node.graph_id, node.node_id);
  const branch = branchName(ctx, req, taskId, node.title);
  const common = [arg('repository', target.id), arg('agent-id', req.agent_id), arg('task-id', taskId)];
  const ttl = req.ttl === undefined ? [] : [arg('ttl', req.ttl)];
  const claimScope =
    given.length === 0 && patterns.length === 0 && scope.component !== undefined
      ? [arg('component', scope.component)]
      : scope.patterns.map((p) => arg('pattern', p));
  const commands = [
    [
      'hub lease acquire',
      ...common,
      '--allocate',
      arg('branch', branch),
      arg('description', node.title),
      ...(req.base === undefined ? [] : [arg('base', req.base)]),
      ...ttl,
    ],
    ['hub worktree create', ...common, arg('branch', branch)],
    ['hub claim declare', ...common, ...claimScope, ...ttl],
  ].map((words) => words.join(' '));
  return {
    target,
    plan: {
      repository: target.id,
      task_id: taskId,
      branch,
      patterns: scope.patterns,
      ...(scope.component === undefined ? {} : { component: scope.component }),
      commands,
    },
  };
}
