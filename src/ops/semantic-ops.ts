import * as z from 'zod';
import {
  type ConceptConflict,
  type ConceptDeclared,
  type ConceptOwner,
  type ConceptQuery,
  checkGlob,
  conceptConflicts,
  conceptIdOf,
  conceptOwners,
  declareConcept,
  type IngestReport,
  ingestCodeOwners,
  normalizePatterns,
  queryConcepts,
  type RepoTarget,
  recordConceptConflicts,
  resolveRepository,
  type SeedReport,
  seedFromComponents,
} from '../acl/index.js';
import { HubError } from '../infra/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { componentsOf } from './claim-ops.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const DECLARE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/semantic/concepts', input: 'body' };

/** A validation problem returned as data (the spec: semantic declare returns errors instead of raising). */
interface DataError {
  code: string;
  field: string;
  value?: unknown;
  rule?: string;
  message: string;
  suggestions?: unknown;
}

const asData = (err: unknown, field: string): DataError => {
  if (!(err instanceof HubError) || (err.code !== 'validation' && err.code !== 'not_found')) throw err;
  const d = err.details ?? {};
  return {
    code: err.code,
    field: typeof d.field === 'string' ? d.field : field,
    ...(d.value === undefined ? {} : { value: d.value }),
    ...(typeof d.rule === 'string' ? { rule: d.rule } : {}),
    message: err.message,
    ...(d.suggestions === undefined ? {} : { suggestions: d.suggestions }),
  };
};

type DeclareView =
  | ({ ok: true; concept_conflicts: ConceptConflict[] } & ConceptDeclared)
  | { ok: false; errors: DataError[] };

export const semanticDeclare = defineOp({
  id: 'semantic.declare',
  summary: 'Declare that paths of a repository implement a concept; bad input returns {ok: false, errors}.',
  description:
    'The concept is created (id from its name: CI/CD -> cicd) or refreshed; its manual ownership in the repository ' +
    'gains the patterns. A bad repository, no patterns or a bad pattern return {ok: false, errors} and store nothing.',
  input: z.strictObject({
    concept: z.string().describe('Concept name (id: lowercased, spaces to -).'),
    repository: z.string().describe('project/repo or .'),
    pattern: z
      .array(z.string())
      .optional()
      .describe('Globs of repository-relative paths the concept owns (picomatch).'),
    patterns: z.array(z.string()).optional().describe('More globs (merged with `pattern`).'),
    description: cliHelp(z.string().optional(), 'What the concept is.'),
    alias: cliHelp(z.array(z.string()).optional(), 'Other names the concept is queried by.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<DeclareView> => {
    const errors: DataError[] = [];
    try {
      conceptIdOf(input.concept);
    } catch (err) {
      errors.push(asData(err, 'concept'));
    }
    let target: RepoTarget | undefined;
    try {
      target = await resolveRepository(repoDeps(ctx), input.repository);
    } catch (err) {
      errors.push(asData(err, 'repository'));
    }
    const given = [...(input.pattern ?? []), ...(input.patterns ?? [])];
    let patterns: string[] = [];
    if (given.length === 0)
      errors.push({
        code: 'validation',
        field: 'patterns',
        value: [],
        rule: 'not_empty',
        message: 'patterns: give at least one --pattern the concept owns',
      });
    else
      try {
        patterns = normalizePatterns(given);
      } catch (err) {
        errors.push(asData(err, 'patterns'));
      }
    if (errors.length > 0 || !target) return { ok: false, errors };
    const plain = {
      concept: input.concept,
      repository: target.id,
      patterns,
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.alias === undefined ? {} : { alias: input.alias }),
    };
    return applyWhereStored(ctx, DECLARE_ROUTE, plain, async (deps) => {
      const r = await declareConcept(deps, { ...plain, aliases: plain.alias });
      const concept_conflicts =
        r.added_patterns.length === 0
          ? []
          : await recordConceptConflicts(
              deps,
              plain.repository,
              (o) => o.ownership_id === r.ownership.ownership_id,
            );
      return { ok: true as const, ...r, concept_conflicts };
    });
  },
  cli: {
    command: 'semantic declare',
    exitCode: (r) => (r.ok ? 0 : 1),
    human: (r) =>
      r.ok
        ? `${r.created_concept ? 'declared' : 'updated'} concept ${r.concept.concept_id} in ${r.ownership.repository}: ${r.ownership.patterns.join(' ')}`
        : ['not declared:', ...r.errors.map((e) => `  ${e.message}`)].join('\n'),
  },
  mcp: { tool: 'hub_semantic_declare', when: 'Use when you learn where a concept lives.' },
  http: [DECLARE_ROUTE],
});

export const semanticQuery = pagedList(
  defineOp({
    id: 'semantic.query',
    summary: 'A concept by id, name or alias with its ownerships (every concept without one).',
    input: z.strictObject({
      concept: z.string().optional().describe('Concept id, name or alias (case-insensitive); omit for all.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: (ctx, input): Promise<ConceptQuery> => queryConcepts(aclDeps(ctx), input.concept),
    cli: {
      command: 'semantic query',
      human: (r) =>
        r.found
          ? r.concepts
              .map(
                (c) =>
                  `${c.concept_id} (${c.name}): ${c.ownerships.map((o) => `${o.repository} ${o.patterns.join(' ')}`).join('; ') || 'no ownerships'}`,
              )
              .join('\n')
          : `no concept '${r.query ?? ''}'${r.suggestions.length ? `; did you mean ${r.suggestions.join(' or ')}?` : ''}`,
    },
    mcp: { tool: 'hub_semantic_query', when: 'Use when looking for the code of a concept.' },
    http: [{ method: 'GET', route: '/v3/ops/semantic/concepts', input: 'query' }],
  }),
  { key: 'concepts', noun: 'Concepts', order: 'by concept id' },
);

export const semanticOwners = defineOp({
  id: 'semantic.owners',
  summary: 'The concepts owning a path or glob of a repository, with the covering pattern.',
  input: z.strictObject({
    repository: aclFields.repository,
    path: z.string().min(1).describe('Repository-relative path or glob.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<{ repository: string; path: string; owners: ConceptOwner[] }> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    const path = checkGlob(input.path, 'path');
    return { repository: target.id, path, owners: await conceptOwners(aclDeps(ctx), target.id, path) };
  },
  cli: {
    command: 'semantic owners',
    human: (r) =>
      table(
        r.owners.map((o) => [o.concept_id, o.source, o.matched.map((m) => m.owned_pattern).join(' ')]),
        ['CONCEPT', 'SOURCE', 'PATTERNS'],
      ) || `no concept owns ${r.path} in ${r.repository}`,
  },
  mcp: { tool: 'hub_semantic_owners', when: 'Use when asking what a file is part of.' },
  http: [{ method: 'GET', route: '/v3/ops/semantic/owners', input: 'query' }],
});

export const semanticConflicts = defineOp({
  id: 'semantic.conflicts',
  summary: "Concepts of a repository whose paths several live agents' claims overlap.",
  description:
    'ConceptConflictHint events are recorded when a claim or concept declaration creates such an overlap, never by this read.',
  input: z.strictObject({ repository: aclFields.repository }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<{ repository: string; conflicts: ConceptConflict[] }> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    return { repository: target.id, conflicts: await conceptConflicts(aclDeps(ctx), target.id) };
  },
  cli: {
    command: 'semantic conflicts',
    human: (r) =>
      r.conflicts
        .map((c) => `${c.concept_id}: agents ${c.agent_ids.join(', ')} (claims ${c.claim_ids.join(', ')})`)
        .join('\n') || `no concept of ${r.repository} is overlapped by several agents`,
  },
  mcp: { tool: 'hub_semantic_conflicts', when: 'Use when agents may collide on a concept.' },
  http: [{ method: 'GET', route: '/v3/ops/semantic/conflicts', input: 'query' }],
});

/** The repositories a workspace-wide command covers: one, or every repository of the catalog. */
async function targetsOf(
  ctx: OpContext,
  repository: string | undefined,
): Promise<Array<{ id: string; target?: RepoTarget; reason?: string }>> {
  if (repository !== undefined) {
    const target = await resolveRepository(repoDeps(ctx), repository);
    return [{ id: target.id, target }];
  }
  const out: Array<{ id: string; target?: RepoTarget; reason?: string }> = [];
  for (const repo of ctx.workspace().catalog.repos) {
    try {
      out.push({ id: repo.id, target: await resolveRepository(repoDeps(ctx), repo.id) });
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      out.push({ id: repo.id, reason: err.message });
    }
  }
  return out;
}

const repositoryFilter = aclFields.repository
  .optional()
  .describe('Only this repository (default: every one).');

export const semanticIngest = defineOp({
  id: 'semantic.ingest',
  summary: "Turn each repository's CODEOWNERS into concepts owning their paths.",
  description:
    'Reads .github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS or .gitlab/CODEOWNERS (the first found) of each ' +
    'checked-out repository. Ingested ownerships mirror the file: running again updates and removes them.',
  input: z.strictObject({ repository: repositoryFilter }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ ok: true; repositories: IngestReport[] }> => {
    const deps = aclDeps(ctx);
    const repositories: IngestReport[] = [];
    for (const t of await targetsOf(ctx, input.repository)) {
      if (!t.target) {
        repositories.push({
          repository: t.id,
          file: null,
          added: 0,
          updated: 0,
          removed: 0,
          unchanged: 0,
          concepts: [],
          skipped_lines: [],
          reason: t.reason,
        });
        continue;
      }
      repositories.push(await ingestCodeOwners(deps, t.target));
    }
    return { ok: true, repositories };
  },
  cli: {
    command: 'semantic ingest',
    human: (r) =>
      table(
        r.repositories.map((x) => [
          x.repository,
          x.file ?? x.reason ?? 'no CODEOWNERS',
          `+${x.added} ~${x.updated} -${x.removed} =${x.unchanged}`,
          String(x.skipped_lines.length),
        ]),
        ['REPOSITORY', 'FILE', 'OWNERSHIPS', 'SKIPPED LINES'],
      ),
  },
  mcp: { tool: 'hub_semantic_ingest', when: 'Use when CODEOWNERS should seed ownership.' },
  http: [{ method: 'POST', route: '/v3/ops/semantic/ingest', input: 'body' }],
});

export const semanticSeed = defineOp({
  id: 'semantic.seed',
  summary: 'Seed concepts from the catalog: each component owns <component path>/** in its repository.',
  description: 'Seeded ownerships mirror the catalog: running again updates and removes them.',
  input: z.strictObject({ repository: repositoryFilter }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ ok: true; repositories: SeedReport[] }> => {
    const deps = aclDeps(ctx);
    const repositories: SeedReport[] = [];
    for (const t of await targetsOf(ctx, input.repository)) {
      if (!t.target) continue;
      const components = componentsOf(ctx, t.target);
      const r = await seedFromComponents(deps, t.target.id, components);
      if (input.repository !== undefined || r.concepts.length > 0 || r.removed > 0) repositories.push(r);
    }
    return { ok: true, repositories };
  },
  cli: {
    command: 'semantic seed',
    human: (r) =>
      table(
        r.repositories.map((x) => [
          x.repository,
          x.concepts.join(' '),
          `+${x.added} ~${x.updated} -${x.removed} =${x.unchanged}`,
        ]),
        ['REPOSITORY', 'CONCEPTS', 'OWNERSHIPS'],
      ) || 'no components to seed from',
  },
  http: [{ method: 'POST', route: '/v3/ops/semantic/seed', input: 'body' }],
});
