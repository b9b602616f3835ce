import * as z from 'zod';
import { type Source, sourceSchemas } from '../model/index.js';
import { type SourceSyncResult, syncSources } from '../sync/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { projectNameFields, projectNameOf } from './project-name.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';

/** HUB_OFFLINE=1 keeps providers off the network (loopback mirrors still answer). */
export const offline = (ctx: OpContext) => /^(1|true|yes)$/i.test(ctx.env.HUB_OFFLINE ?? '');

/** Runs a source sync against the loaded manifest; the workspace is reloaded after a write. */
export async function runSourceSync(
  ctx: OpContext,
  input: {
    project?: string;
    from_manifest?: boolean;
    source?: Source;
    apply?: boolean;
  },
): Promise<SourceSyncResult> {
  const { file } = ctx.workspace();
  const result = await syncSources(file, {
    project: input.project,
    fromManifest: input.from_manifest ?? true,
    source: input.source,
    apply: Boolean(input.apply),
    env: ctx.env,
    http: { offline: offline(ctx) },
  });
  if (result.applied) ctx.invalidate();
  return result;
}

export function sourceSyncText(r: SourceSyncResult): string {
  const lines: string[] = [];
  for (const s of r.sources) {
    const state = !s.enabled
      ? 'disabled'
      : s.error
        ? `error ${s.error.kind}: ${s.error.message}`
        : `${s.discovered_count} found, ${s.filtered_count} filtered`;
    lines.push(`source ${s.project}/${s.id} (${s.provider} ${s.namespace}): ${state}`);
  }
  const verb = r.applied ? '' : 'would ';
  for (const x of r.plan.to_add) lines.push(`${verb}add     ${x.project}/${x.name}  ${x.url ?? x.path}`);
  for (const x of r.plan.to_update)
    lines.push(`${verb}update  ${x.project}/${x.name}  ${x.changes?.join(', ')}`);
  for (const x of r.plan.to_remove) lines.push(`${verb}remove  ${x.project}/${x.name}  ${x.identity}`);
  for (const e of r.errors) lines.push(`error   ${e.project}/${e.source} ${e.kind}: ${e.message}`);
  const p = r.plan;
  lines.push(
    `${r.applied ? 'applied' : 'preview'}: ${p.to_add.length} to add, ${p.to_update.length} to update, ` +
      `${p.to_remove.length} to remove, ${p.unchanged.length} unchanged` +
      (r.applied ? '' : ' (run with --apply to write the manifest)'),
  );
  return lines.join('\n');
}

export const projectSourceSync = defineOp({
  id: 'project.source.sync',
  summary: "Preview or apply the repositories a project's sources[] find (local folders, GitHub, GitLab).",
  description:
    'Without --apply nothing is written. --apply adds new repositories to repos[] (url for hosted sources, path ' +
    'for local ones, with their source provenance), updates moved ones, and in reconcile mode removes entries ' +
    'of the source that were not found again (the folders stay: see project repo prune). The manifest keeps ' +
    'its comments and formatting. Host tokens come from the environment (GITHUB_TOKEN or GH_TOKEN, ' +
    'GITLAB_TOKEN) and API roots from HUB_GITHUB_API_URL / HUB_GITLAB_API_URL; neither is ever printed.',
  input: z.strictObject({
    ...projectNameFields,
    from_manifest: cliHelp(
      z.boolean().default(true).describe("Read the manifest's sources; false reads only `source`."),
      "Read only --source, not the manifest's sources.",
    ),
    source: sourceSchemas()
      .SourceSchema.optional()
      .describe('A source to read instead of the manifest ones (with `from_manifest`: false).'),
    apply: z.boolean().optional().describe('Write the plan into the manifest (default: preview only).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input) => runSourceSync(ctx, { ...input, project: projectNameOf(input) }),
  cli: {
    command: 'project source sync',
    human: (r) => sourceSyncText(r),
    exitCode: (r) => (r.ok ? 0 : 1),
  },
  http: [{ method: 'POST', route: '/v3/ops/source-sync', input: 'body' }],
});

export const workspaceDiscover = defineOp({
  id: 'workspace.discover',
  summary: "Discover repositories from sources (the manifest's, or one given) without writing.",
  description:
    'With provider and path/org/user/group, reads that one source; otherwise every source of the manifest (or ' +
    'of --project). Each repository comes with the entry it would become and whether the manifest has it.',
  input: z.strictObject({
    ...projectNameFields,
    provider: z
      .enum(['local', 'github', 'gitlab'])
      .optional()
      .describe('Read this source instead of the manifest ones.'),
    path: z.string().min(1).optional().describe('local: folder of checkouts, relative to the manifest.'),
    org: z.string().min(1).optional().describe('github: organization.'),
    user: z.string().min(1).optional().describe('github: user.'),
    group: z.string().min(1).optional().describe('gitlab: group path.'),
    include: z.array(z.string()).optional().describe('Globs on <namespace>/<repo> or <repo>.'),
    exclude: cliHelp(z.array(z.string()).optional(), 'Globs left out.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input) => {
    const project = projectNameOf(input);
    const adhoc = input.provider !== undefined;
    const { catalog } = ctx.workspace();
    const first = catalog.repos.find((r) => r.kind === 'workspace')?.project;
    const source = adhoc
      ? sourceSchemas().SourceSchema.parse({
          provider: input.provider,
          ...(input.path ? { path: input.path } : {}),
          ...(input.org ? { org: input.org } : {}),
          ...(input.user ? { user: input.user } : {}),
          ...(input.group ? { group: input.group } : {}),
          ...(input.include ? { include: input.include } : {}),
          ...(input.exclude ? { exclude: input.exclude } : {}),
        })
      : undefined;
    const r = await runSourceSync(ctx, {
      project:
        project ??
        (adhoc ? (ctx.workspace().file.manifest.workspace?.projects?.[0]?.name ?? first) : undefined),
      from_manifest: !adhoc,
      source,
      apply: false,
    });
    const inManifest = new Set([...r.plan.unchanged, ...r.plan.to_update].map((x) => x.identity));
    return {
      ok: r.ok,
      sources: r.sources,
      repos: [...r.plan.unchanged, ...r.plan.to_update, ...r.plan.to_add].map((x) => ({
        ...x,
        in_manifest: inManifest.has(x.identity),
      })),
      errors: r.errors,
    };
  },
  cli: {
    command: 'project source discover',
    human: (r) =>
      [
        ...r.repos.map(
          (x) => `${x.in_manifest ? 'managed  ' : 'new      '} ${x.identity}  ${x.url ?? x.path}`,
        ),
        `${r.repos.length} repositories from ${r.sources.length} source(s); ${r.repos.filter((x) => !x.in_manifest).length} not in the manifest`,
        ...r.errors.map((e) => `error ${e.project}/${e.source} ${e.kind}: ${e.message}`),
      ].join('\n'),
  },
  mcp: {
    tool: 'hub_workspace_discover',
    when: 'Use when looking for repositories not yet listed.',
  },
  http: [{ method: 'GET', route: '/v3/ops/discover', input: 'query' }],
});
