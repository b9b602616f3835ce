import * as z from 'zod';
import type { Problem } from '../catalog/index.js';
import { RefusedError } from '../infra/index.js';
import { locateManifest, readManifestText, yaml } from '../model/index.js';
import { checkManifest, configuredManifestLimit, type ManifestCheck } from './manifest-check.js';
import { MANIFEST_EXAMPLE } from './manifest-example.js';
import { defineOp, READ_ONLY } from './registry.js';

/** `line 12: workspace.project: unknown key 'project'; did you mean 'projects'? [schema.unrecognized_keys]`. */
function problemLine(p: Problem): string {
  const where = [p.line ? `line ${p.line}` : '', p.path].filter(Boolean).join(': ');
  return `${where ? `${where}: ` : ''}${p.message} [${p.rule}]`;
}

/** Above this many repos, whole-config output needs explicit confirmation (spec: Limits). */
export const FULL_CONFIG_GUARD = 80;

export const configValidate = defineOp({
  id: 'config.validate',
  summary: 'Check the manifest against every rule and list all problems with their YAML path and line.',
  description:
    'Exits 1 when there are problems; warnings (a near miss of a recommended kind) are listed and exit 0. Component directories are checked only for repos that are checked out.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx): ManifestCheck => checkManifest(ctx, locateManifest(ctx.cwd, ctx.definition)),
  cli: {
    command: 'config validate',
    exitCode: (r) => (r.valid ? 0 : 1),
    human: (r) =>
      [
        r.valid
          ? `ok: ${r.file} (${r.counts.projects} projects, ${r.counts.repos} repos, ${r.counts.components} components, ${r.counts.relationships} relationships)`
          : `${r.problems.length} problem(s) in ${r.file}:`,
        ...r.problems.map((p) => `  ${problemLine(p)}`),
        ...(r.warnings ?? []).map((p) => `warning: ${problemLine(p)}`),
      ].join('\n'),
  },
  http: [{ method: 'GET', route: '/v3/config/hub/validate', input: 'none' }],
});

export const configShow = defineOp({
  id: 'config.show',
  summary: 'Show the manifest: as on disk, or normalized (legacy keys renamed, defaults filled).',
  description: `Refused above ${FULL_CONFIG_GUARD} repositories unless --confirm-full is given.`,
  input: z.strictObject({
    normalized: z.boolean().optional().describe('Show the validated, normalized model instead of the file.'),
    confirm_full: z
      .boolean()
      .optional()
      .describe(`Allow output for workspaces above ${FULL_CONFIG_GUARD} repositories.`),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const ws = ctx.workspace();
    const repoCount = ws.catalog.repos.length;
    if (repoCount > FULL_CONFIG_GUARD && !input.confirm_full) {
      throw new RefusedError(
        `the manifest has ${repoCount} repositories (over ${FULL_CONFIG_GUARD}); pass --confirm-full to print all of it, or use \`hub workspace repo list\``,
        { repo_count: repoCount, limit: FULL_CONFIG_GUARD, rule: 'confirm_full' },
      );
    }
    return {
      file: ws.file.path,
      repo_count: repoCount,
      view: input.normalized ? ('normalized' as const) : ('on_disk' as const),
      manifest: ws.file.manifest,
      text: input.normalized
        ? yaml().stringify(ws.file.manifest, { lineWidth: 0 })
        : readManifestText(ws.file.path, configuredManifestLimit(ctx)).text,
    };
  },
  cli: { command: 'config show', human: (r) => r.text },
  http: [{ method: 'GET', route: '/v3/config/hub', input: 'query' }],
});

export const configExample = defineOp({
  id: 'config.example',
  summary: 'Print a commented example manifest to start from.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: () => ({ text: MANIFEST_EXAMPLE }),
  cli: { command: 'config example', human: (r) => r.text },
  http: [{ method: 'GET', route: '/v3/config/hub/example', input: 'none' }],
});
