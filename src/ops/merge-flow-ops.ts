import * as z from 'zod';
import { type PromoteResult, promoteMerge, type RollupResult, rollupBranches } from '../merge/index.js';
import { aclFields } from './acl-deps.js';
import { cliHelp } from './cli-help.js';
import { mergeDeps, mergeFields, mergeTarget, targetOfMerge } from './merge-deps.js';
import { defineOp, WRITES } from './registry.js';

export const mergePromote = defineOp({
  id: 'merge.promote',
  summary: "Merge a succeeded merge's target branch into `into` in a temporary worktree, validated.",
  description:
    'Only a succeeded request. Refused (409, naming the worktrees) while --into is checked out anywhere, on a ' +
    'conflict (files named) and when merge.validators fail; nothing moves then. --into moves by compare-and-swap; ' +
    'the promotion is recorded on the request (its status stays succeeded) with a MergePromoted event.',
  input: z.strictObject({
    merge_id: mergeFields.merge_id,
    into: z.string().min(1).describe('Branch to promote into, such as main.'),
    repository: cliHelp(
      aclFields.repository.optional().describe('Default: found by id.'),
      'Repository of the request (default: found by id).',
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<PromoteResult> => {
    const { target } = await targetOfMerge(ctx, input.merge_id, input.repository);
    return promoteMerge(mergeDeps(ctx), target, { merge_id: input.merge_id, into: input.into });
  },
  cli: {
    command: 'merge promote',
    human: (r) =>
      r.up_to_date
        ? `${r.into} already contains ${r.merge.target_branch} (${r.from_sha.slice(0, 12)}); nothing moved`
        : `promoted ${r.merge.target_branch} (${r.from_sha.slice(0, 12)}) into ${r.into}: ${r.previous_sha.slice(0, 12)} -> ${r.commit_sha.slice(0, 12)}`,
  },
  mcp: {
    tool: 'hub_merge_promote',
    when: 'Use when merged work should move on.',
  },
  http: [{ method: 'POST', route: '/v3/ops/merges/promote', input: 'body' }],
});

const rollupLines = (r: RollupResult) => [
  `${r.created ? 'created' : 'updated'} ${r.into} in ${r.repository} from ${r.base} (${r.base_sha.slice(0, 12)}) at ${r.commit_sha.slice(0, 12)}`,
  ...r.merged.map((m) => `  merged     ${m.branch}${m.regenerated ? ' (regenerated)' : ''}`),
  ...r.conflicted.map((c) => `  conflicted ${c.branch}: ${c.files.join(', ')}`),
  ...r.skipped.map((s) => `  skipped    ${s.branch}: ${s.reason} (${s.message})`),
];

export const mergeRollup = defineOp({
  id: 'merge.rollup',
  summary: 'Merge branches in order into one integration branch.',
  description:
    'The integration branch is rebuilt from --base (default: its own head) in one temporary worktree: each ' +
    'branch is merged in order and merge.validators run after each; a branch whose validators fail is undone ' +
    'and skipped, a conflicted one is skipped with its files, the rest go on. --into moves once, by ' +
    'compare-and-swap, and is refused while checked out anywhere. One MergeRollup event.',
  input: z.strictObject({
    repository: aclFields.repository,
    into: z.string().min(1).describe('Integration branch to create or update.'),
    base: z
      .string()
      .min(1)
      .optional()
      .describe('Revision to rebuild it from (required when `into` does not exist yet).'),
    branches: z.string().optional().describe('Branches to merge in order, comma-separated.'),
    branch: z.array(z.string().min(1)).optional().describe('Branches to merge after `branches`.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<RollupResult> => {
    const target = await mergeTarget(ctx, input.repository);
    const branches = [
      ...(input.branches ?? '')
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
      ...(input.branch ?? []),
    ];
    return rollupBranches(mergeDeps(ctx), target, { into: input.into, base: input.base, branches });
  },
  cli: {
    command: 'merge rollup',
    human: (r) => rollupLines(r).join('\n'),
    exitCode: (r) =>
      r.conflicted.length > 0 || r.skipped.some((s) => s.reason !== 'already_merged') ? 1 : 0,
  },
  mcp: {
    tool: 'hub_merge_rollup',
    when: 'Use when branches should be tested together.',
  },
  http: [{ method: 'POST', route: '/v3/ops/merges/rollup', input: 'body' }],
});
