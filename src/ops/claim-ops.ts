import * as z from 'zod';
import {
  CLAIM_LIST_STATUSES,
  type Claim,
  type ClaimConflict,
  type ConceptConflict,
  type ConceptHint,
  checkAgentId,
  checkClaims,
  conceptHints,
  declareClaim,
  heartbeatClaims,
  listClaims,
  type RepoTarget,
  releaseClaims,
  resolveClaimScope,
  resolveRepository,
} from '../acl/index.js';
import type { CatalogComponent } from '../catalog/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const DECLARE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/claims', input: 'body' };
const RELEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/claims/release', input: 'body' };
const HEARTBEAT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/claims/heartbeat', input: 'body' };

/** `--pattern` reads well on the command line, `patterns` in a JSON body (the spec's MCP name): both are taken. */
export const patternFields = {
  pattern: z.array(z.string()).optional().describe('Repository-relative globs; optional with `component`.'),
  patterns: z.array(z.string()).optional().describe('More globs (merged with `pattern`).'),
};
const componentField = z
  .string()
  .optional()
  .describe('Component; without patterns the claim is its path/**.');
const claimIdField = cliHelp(z.string().min(1), 'Claim id (cl-…).');

/** The components of the repository an ACL target names (none for an unlisted definition repository). */
export function componentsOf(ctx: OpContext, target: RepoTarget): readonly CatalogComponent[] {
  return target.repo ? (ctx.workspace().catalog.componentsByRepo.get(target.repo.id) ?? []) : [];
}

const merged = (input: { pattern?: string[]; patterns?: string[] }) => [
  ...(input.pattern ?? []),
  ...(input.patterns ?? []),
];

const until = (c: Claim) => `until ${c.expires_at}`;
const claimLine = (c: Claim) =>
  `${c.claim_id} ${c.status} ${c.agent_id} ${c.repository} ${c.patterns.join(' ')} ${c.status === 'active' ? until(c) : ''}`.trim();
const conflictLines = (conflicts: ClaimConflict[]) => conflicts.map((c) => `  conflict: ${c.reason}`);
const hintLines = (hints: ConceptHint[]) => hints.map((h) => `  concept: ${h.reason}`);

interface DeclareView {
  ok: true;
  repository: string;
  claim: Claim;
  created: boolean;
  added_patterns: string[];
  overlaps: ClaimConflict[];
  /** Ids of claims whose expiry this declaration recorded. */
  expired: string[];
  concept_hints: ConceptHint[];
  concept_conflicts: ConceptConflict[];
}

export const claimDeclare = defineOp({
  id: 'claim.declare',
  summary: "Claim a repository's paths (patterns or a component) for an agent; overlapping claims refuse it.",
  description:
    'Atomic: of agents racing for overlapping paths exactly one is granted. The same agent declaring again for ' +
    'the same task and component extends and renews its claim. A claim lapses after its TTL (default 30m) ' +
    'unless renewed with claim heartbeat. --allow-overlap grants despite overlaps and records them.',
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    ...patternFields,
    component: componentField,
    task_id: aclFields.task_id.optional(),
    ttl: aclFields.ttl,
    allow_overlap: z.boolean().optional().describe('Grant despite overlapping claims, recording them.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<DeclareView> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    checkAgentId(input.agent_id);
    const scope = resolveClaimScope(componentsOf(ctx, target), target, {
      component: input.component,
      patterns: merged(input),
    });
    const plain = {
      repository: target.id,
      agent_id: input.agent_id,
      patterns: scope.patterns,
      ...(scope.component === undefined ? {} : { component: scope.component }),
      ...(input.task_id === undefined ? {} : { task_id: input.task_id }),
      ...(input.ttl === undefined ? {} : { ttl: input.ttl }),
      ...(input.allow_overlap ? { allow_overlap: true } : {}),
    };
    return applyWhereStored(ctx, DECLARE_ROUTE, plain, async (deps) => {
      const r = await declareClaim(deps, plain);
      return {
        ok: true as const,
        repository: target.id,
        claim: r.claim,
        created: r.created,
        added_patterns: r.added_patterns,
        overlaps: r.overlaps,
        expired: r.expired.map((c) => c.claim_id),
        concept_hints: r.concept_hints,
        concept_conflicts: r.concept_conflicts,
      };
    });
  },
  cli: {
    command: 'claim declare',
    human: (r) =>
      [
        `${r.created ? 'claimed' : 'renewed'} ${r.claim.claim_id} for ${r.claim.agent_id} in ${r.repository} ${until(r.claim)}: ${r.claim.patterns.join(' ')}`,
        ...conflictLines(r.overlaps),
        ...hintLines(r.concept_hints),
      ].join('\n'),
  },
  mcp: { tool: 'hub_claim_declare', when: 'Use when about to edit files others may edit.' },
  http: [DECLARE_ROUTE],
});

interface CheckView {
  ok: boolean;
  repository: string;
  component?: string;
  patterns: string[];
  agent_id: string | null;
  conflicts: ClaimConflict[];
  /** True when there were more conflicts than the 100 listed. */
  conflicts_truncated: boolean;
  concept_hints: ConceptHint[];
}

export const claimCheck = defineOp({
  id: 'claim.check',
  summary: "Check patterns or a component against other agents' live claims.",
  description:
    'A pure read. Each conflict names the claim, its agent, both patterns and a path both match. concept_hints ' +
    'list concepts whose ownership overlaps the patterns; they are advisory, never conflicts. Exits 1 when it ' +
    'finds conflicts (ok: false; the JSON is still printed).',
  input: z.strictObject({
    repository: aclFields.repository,
    ...patternFields,
    component: componentField,
    agent_id: aclFields.agent_id.optional().describe('Agent asking: its own claims never conflict.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<CheckView> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    const scope = resolveClaimScope(componentsOf(ctx, target), target, {
      component: input.component,
      patterns: merged(input),
    });
    const deps = aclDeps(ctx);
    const { conflicts, truncated } = await checkClaims(deps, {
      repository: target.id,
      patterns: scope.patterns,
      agent_id: input.agent_id,
    });
    return {
      ok: conflicts.length === 0,
      repository: target.id,
      ...(scope.component === undefined ? {} : { component: scope.component }),
      patterns: scope.patterns,
      agent_id: input.agent_id ?? null,
      conflicts,
      conflicts_truncated: truncated,
      concept_hints: await conceptHints(deps, target.id, scope.patterns),
    };
  },
  cli: {
    command: 'claim check',
    // A check that finds a conflict fails, so a script guarded by it stops (as config validate does).
    exitCode: (r) => (r.ok ? 0 : 1),
    human: (r) =>
      [
        r.ok
          ? `no conflicts in ${r.repository} for ${r.patterns.join(' ')}`
          : `${r.conflicts.length} conflict(s) in ${r.repository}:`,
        ...conflictLines(r.conflicts),
        ...hintLines(r.concept_hints),
      ].join('\n'),
  },
  mcp: { tool: 'hub_claim_check', when: 'Use when checking paths are free.' },
  http: [{ method: 'GET', route: '/v3/ops/claims/check', input: 'query' }],
});

export const claimList = pagedList(
  defineOp({
    id: 'claim.list',
    summary: 'List claims; one past its TTL shows expired.',
    input: z.strictObject({
      repository: cliHelp(aclFields.repository.optional(), 'Only this repository (project/repo, . or self).'),
      agent_id: cliHelp(aclFields.agent_id.optional(), 'Only claims of this agent.'),
      status: z.enum(CLAIM_LIST_STATUSES).default('active').describe('active: live now.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ claims: Claim[] }> => {
      const repository =
        input.repository === undefined
          ? undefined
          : (await resolveRepository(repoDeps(ctx), input.repository)).id;
      return { claims: await listClaims(aclDeps(ctx), { ...input, repository }) };
    },
    cli: {
      command: 'claim list',
      human: (r) =>
        table(
          r.claims.map((c) => [
            c.claim_id,
            c.status,
            c.agent_id,
            c.repository,
            c.expires_at,
            c.patterns.join(' '),
          ]),
          ['CLAIM', 'STATUS', 'AGENT', 'REPOSITORY', 'EXPIRES', 'PATTERNS'],
        ) || 'no claims',
    },
    mcp: { tool: 'hub_claim_list', when: 'Use when asking who claims which paths.' },
    http: [{ method: 'GET', route: '/v3/ops/claims', input: 'query' }],
  }),
  { key: 'claims', noun: 'Claims', order: 'by repository, then oldest first' },
);

export const claimRelease = defineOp({
  id: 'claim.release',
  summary: "Release a claim (another agent's with `force`), or an agent's live claims.",
  input: z.strictObject({
    claim_id: claimIdField.optional(),
    agent_id: aclFields.agent_id
      .optional()
      .describe('Agent releasing: the owner of `claim_id`, or whose claims go.'),
    repository: cliHelp(aclFields.repository.optional(), 'Only claims of this repository.'),
    force: cliHelp(z.boolean().optional(), "Release another agent's claim (for a dead agent's claims)."),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ released: Claim[]; inactive: Claim[] }> => {
    const repository =
      input.repository === undefined
        ? undefined
        : (await resolveRepository(repoDeps(ctx), input.repository)).id;
    const plain = { ...input, ...(repository === undefined ? {} : { repository }) };
    return applyWhereStored(ctx, RELEASE_ROUTE, plain, (deps) => releaseClaims(deps, plain));
  },
  cli: {
    command: 'claim release',
    human: (r) =>
      [
        r.released.length === 0 ? 'no live claim released' : `released ${r.released.length} claim(s):`,
        ...r.released.map((c) => `  ${claimLine(c)}`),
        ...r.inactive.map((c) => `  already ${c.status}: ${c.claim_id}`),
      ].join('\n'),
  },
  mcp: { tool: 'hub_claim_release', when: 'Use when done editing claimed paths.' },
  http: [RELEASE_ROUTE],
});

export const claimHeartbeat = defineOp({
  id: 'claim.heartbeat',
  summary: "Renew an agent's live claims for the TTL; expired ones are declared again.",
  input: z.strictObject({
    agent_id: aclFields.agent_id,
    repository: aclFields.repository.optional().describe('Only claims of this repository.'),
    claim_id: claimIdField.optional(),
    ttl: aclFields.ttl,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ renewed: Claim[] }> => {
    const repository =
      input.repository === undefined
        ? undefined
        : (await resolveRepository(repoDeps(ctx), input.repository)).id;
    const plain = { ...input, ...(repository === undefined ? {} : { repository }) };
    return applyWhereStored(ctx, HEARTBEAT_ROUTE, plain, async (deps) => ({
      renewed: await heartbeatClaims(deps, plain),
    }));
  },
  cli: {
    command: 'claim heartbeat',
    human: (r) =>
      r.renewed.length === 0
        ? 'no live claims to renew'
        : [`renewed ${r.renewed.length} claim(s):`, ...r.renewed.map((c) => `  ${claimLine(c)}`)].join('\n'),
  },
  mcp: { tool: 'hub_claim_heartbeat', when: 'Use when your edits outlast the claims.' },
  http: [HEARTBEAT_ROUTE],
});
