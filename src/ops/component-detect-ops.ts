import * as z from 'zod';
import {
  appendComponents,
  appendComponentsToRepos,
  type Candidate,
  CHART_PARENTS,
  checkApplicable,
  detectInRepo,
  draftComponent,
  HIGH_CONFIDENCE_MARKERS,
  KIND_HINTS,
  MARKER_LANGUAGES,
  type RepoDrafts,
  ROLE_DIRS,
  SKIP_DIRS,
} from '../catalog/index.js';
import { RefusedError } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import { table } from './format.js';
import { defineOp, WRITES } from './registry.js';
import { checkScope, readableRepos, scopeFields } from './scope.js';

// component detect and init: a module of their own, so that list, show, resolve and graph never load the marker
// readers (a TOML and an XML parser).

/** What detect looks for, from the rules themselves so that --help never drifts from them. */
const DETECT_HELP = [
  `Looks for marker files in every checked-out repository (6 levels deep; ${[...SKIP_DIRS].join(', ')} and hidden folders skipped): ${[...HIGH_CONFIDENCE_MARKERS, '*.csproj'].join(', ')}, and ${CHART_PARENTS.map((p) => `${p}/<name>/Chart.yaml`).join(', ')} (Helm charts: infrastructure).`,
  `Kind from the nearest folder on the path: ${Object.entries(KIND_HINTS)
    .map(([dir, kind]) => `${dir}/ ${kind}`)
    .join(', ')} (cmd/<name> with its go.mod is a Go command); else from the markers: a package.json bin ` +
    'without main/exports cli, a private one application, else library; a Go main package (or a cmd/ folder) ' +
    'application, else library; a library crate library, a binary crate application; a Python distribution ' +
    'library; a Maven war application, jar library; the Gradle application plugin application; a .csproj with ' +
    'an Exe output application, else library; else unknown.',
  `The language comes from the marker: ${Object.entries(MARKER_LANGUAGES)
    .map(([m, l]) => `${m} ${l}`)
    .join(', ')} (typescript with a tsconfig.json beside it).`,
  'The repository root is a candidate when its markers name a package that is not only a workspace root (a ' +
    'private package.json with workspaces or a pnpm-workspace.yaml, lerna.json or rush.json beside it, a Cargo ' +
    '[workspace] without [package], a uv workspace, a Maven pom aggregator, a Gradle build that only includes ' +
    'sub-projects); an unnamed root only when nothing inside is a candidate. A package.json that declares ' +
    'nothing (only "type") is no candidate.',
  `Candidates at or below ${[...new Set(Object.keys(ROLE_DIRS))].map((d) => `${d}/`).join(', ')} carry a role (example, benchmark, fuzz, test), written as the tag role.`,
  'Already catalogued paths are marked and skipped; --apply writes every new candidate in one edit of the manifest, and one that would write nothing (no candidate, or every one catalogued) is an error.',
].join('\n');

export const componentDetect = defineOp({
  id: 'component.detect',
  summary: 'Find component candidates from marker files; `apply` writes them.',
  description: DETECT_HELP,
  input: z.strictObject({
    ...scopeFields,
    apply: z.boolean().optional().describe('Write new candidates into the manifest.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): { candidates: Candidate[]; applied: boolean; written: string[] } => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    // A repository outside the workspace is not scanned (refused when named with --repo).
    const readable = readableRepos(catalog, ctx.checkouts(), input.project, input.repo).repos;
    const repos = readable.map((r) => r.repo);
    const candidates = readable.flatMap((r) => (r.present ? detectInRepo(catalog, r.repo, r.root) : []));
    const written: string[] = [];
    if (input.apply) {
      // An apply that writes nothing is never a silent success: a script or agent must see it did nothing.
      const fresh = candidates.filter((c) => !c.already_catalogued);
      if (fresh.length === 0) {
        const skipped = candidates.map((c) => `${c.project}/${c.repo}/${c.name}`);
        throw new RefusedError(
          candidates.length === 0
            ? "nothing to apply: no candidate found (the operation's description says what it looks for: hub component detect --help)"
            : `nothing to apply: every candidate (${candidates.length}) is already catalogued`,
          { rule: 'nothing_to_apply', candidates: candidates.length, skipped: skipped.slice(0, 50) },
          409,
        );
      }
      const groups: RepoDrafts[] = [];
      for (const repo of repos) {
        const drafts = fresh.filter((c) => c.project === repo.project && c.repo === repo.name);
        if (drafts.length === 0) continue;
        groups.push({ repo, drafts });
        written.push(...drafts.map((c) => `${repo.id}/${c.name}`));
      }
      // One edit of the manifest for every repository: one write, and nothing written when any part fails.
      appendComponentsToRepos(catalog, groups);
      if (written.length > 0) ctx.invalidate();
    }
    return { candidates, applied: written.length > 0, written };
  },
  cli: {
    command: 'component detect',
    aliases: ['detect'],
    human: (r) =>
      `${table(
        r.candidates.map((c) => [
          `${c.project}/${c.repo}`,
          c.path,
          c.role ? `${c.kind} (${c.role})` : c.kind,
          c.markers.join(','),
          c.already_catalogued ? 'catalogued' : 'new',
        ]),
        ['REPO', 'PATH', 'KIND', 'MARKERS', 'STATUS'],
      )}${r.applied ? `\nwrote ${r.written.length} component(s)` : ''}`,
  },
  mcp: { tool: 'hub_component_detect', when: 'Use when the catalog lacks components.' },
  // The spec's GET detect never writes: apply stays false on HTTP (the CLI and MCP may apply).
  http: [{ method: 'GET', route: '/v3/ops/components/detect', input: 'query', fixed: { apply: false } }],
});

export const componentInit = defineOp({
  id: 'component.init',
  summary: 'Draft a component for a directory; `apply` writes it to the manifest.',
  input: z.strictObject({
    path: z.string().min(1).describe('Repo-relative or absolute directory.'),
    name: z.string().min(1).optional().describe('Default: the basename of `path`.'),
    kind: z.string().min(1).optional().describe('Default: from the directory, else unknown.'),
    ...scopeFields,
    apply: cliHelp(z.boolean().optional(), 'Write the component into repos[].components[].'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const { repo, draft, problem } = draftComponent(catalog, input, ctx.checkouts());
    if (input.apply) {
      if (repo.kind === 'application') {
        throw new RefusedError('cannot apply to an application manifest with no workspace repos', {
          repository: repo.id,
          rule: 'application_manifest',
        });
      }
      checkApplicable(repo, draft, problem);
      appendComponents(catalog, repo, [draft]);
      ctx.invalidate();
    }
    return {
      id: `${repo.id}/${draft.name}`,
      project: repo.project,
      repo: repo.name,
      component: draft,
      applied: Boolean(input.apply),
      // What `config validate` would say once written; apply refuses while there is one.
      warnings: problem ? [`${problem.message}: create it before applying`] : [],
    };
  },
  cli: {
    command: 'component init',
    args: ['path'],
    human: (r) =>
      [
        `${r.applied ? 'added' : 'draft (pass --apply to write)'}: ${r.id}  path=${r.component.path} kind=${r.component.kind}`,
        ...r.warnings.map((w) => `warning: ${w}`),
      ].join('\n'),
  },
  mcp: { tool: 'hub_component_init', when: 'Use when cataloguing one directory.' },
  http: [{ method: 'POST', route: '/v3/ops/components/init', input: 'body' }],
});
