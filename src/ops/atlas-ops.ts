import * as z from 'zod';
import type {
  AtlasStatus,
  AtlasValidation,
  GenerateResult,
  InitResult,
  QueryResult,
} from '../atlas/index.js';
import { scopeMiss } from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { onCli } from './install-support.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

// The atlas room (and through generate, the tree-sitter parser) loads only when an atlas command runs.
const atlas = () => import('../atlas/index.js');

const pathField = cliHelp(
  z.string().min(1).optional().describe('Folder holding .atlas/ (default: the working directory).'),
  'Repository folder holding .atlas/ (default: the working directory); no .hub.yml needed.',
);
const projectField = z
  .string()
  .min(1)
  .optional()
  .describe('Project of a workspace repository (with `repo`).');
const repoField = z
  .string()
  .min(1)
  .optional()
  .describe('Workspace repository whose checkout to read (with `project`).');

/**
 * The folder an atlas command works on, and the folder it must stay in. `project`/`repo` name a checkout of the
 * workspace. On the CLI any folder the user names is read; over MCP and HTTP the folder must lie in the served
 * workspace, so a caller cannot have the server read or write elsewhere.
 */
function target(
  ctx: OpContext,
  input: { path?: string; project?: string; repo?: string },
): { cwd: string; path?: string; confine?: string } {
  // Over MCP and HTTP a relative path starts at the served workspace, not at the server's working directory.
  const confine = onCli(ctx) ? undefined : ctx.root();
  const cwd = confine ?? ctx.cwd;
  if (input.project === undefined && input.repo === undefined) return { cwd, path: input.path, confine };
  if (input.project === undefined || input.repo === undefined || input.path !== undefined)
    throw new ValidationError('project and repo go together, and replace path', {
      field: input.path !== undefined ? 'path' : input.project === undefined ? 'project' : 'repo',
      rule: 'together',
    });
  const { catalog } = ctx.workspace();
  const repo = catalog.repoById.get(`${input.project}/${input.repo}`);
  if (!repo) {
    const miss = scopeMiss(catalog, input.project, input.repo, {
      project: 'unknown_project',
      repo: 'unknown_repository',
    });
    throw new NotFoundError(miss.message, miss.details);
  }
  const c = ctx.checkouts().of(repo);
  if (c.state === 'outside') throw c.error;
  if (c.state !== 'present')
    throw new NotFoundError(
      `repo: ${input.project}/${input.repo} is not checked out; run \`hub project sync\``,
      {
        field: 'repo',
        value: input.repo,
        rule: 'checked_out',
      },
    );
  return { cwd, path: c.dir, confine };
}

const skippedText = (s: GenerateResult['skipped']) =>
  Object.entries(s)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k.replace('_', ' ')}`)
    .join(', ') || 'none';

const generateHuman = (r: GenerateResult) =>
  [
    `${r.repository}: ${r.files} files, ${r.symbols} symbols, ${r.verifications} tests (${
      Object.entries(r.languages)
        .map(([l, n]) => `${l} ${n}`)
        .join(', ') || 'no parsed languages'
    })`,
    `skipped: ${skippedText(r.skipped)}`,
    `revision: ${r.revision ?? '(no commit)'}`,
    ...r.written.map((w) => `wrote ${w}`),
    ...(r.issues.length
      ? [`${r.issues.length} problem(s) in curated files: run \`hub atlas validate\``]
      : []),
  ].join('\n');

export const atlasInit = defineOp({
  id: 'atlas.init',
  summary:
    "Create a repository's .atlas/ layout (atlas.yaml, curated files, folders); existing files are kept.",
  description:
    'Works in any folder, with or without a manifest. Running it again only adds what is missing. With `generate` the generated files are written too.',
  input: z.strictObject({
    path: pathField,
    repository: cliHelp(
      z.string().min(1).max(256).optional(),
      'Repository name in atlas.yaml (default: the folder name).',
    ),
    generate: z.boolean().optional().describe('Also run atlas generate.'),
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input): Promise<InitResult & { generated?: GenerateResult }> => {
    const a = await atlas();
    const r = a.initAtlas(ctx.cwd, input.path, input.repository);
    if (!input.generate) return r;
    return { ...r, generated: await a.generateAtlas({ cwd: ctx.cwd, path: input.path }) };
  },
  cli: {
    command: 'atlas init',
    human: (r) =>
      [
        `${r.path}: ${r.created.length} created, ${r.kept.length} kept`,
        ...r.created.map((c) => `created ${c}`),
        ...(r.generated ? [generateHuman(r.generated)] : []),
      ].join('\n'),
  },
});

export const atlasGenerate = defineOp({
  id: 'atlas.generate',
  summary:
    'Rebuild .atlas/generated/ from the sources: inventory, exported symbols and tests (tree-sitter), manifests.',
  description:
    "Curated files are never written. Symbols (exported functions, classes, types, interfaces, variables, with file and line) and tests come from TypeScript/JavaScript, Python, Go and Rust. Files over the size limit, binary files, vendored and generated folders are skipped and counted. Times are the HEAD commit's, so one commit always gives the same bytes.",
  input: z.strictObject({ path: pathField }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input): Promise<GenerateResult> =>
    (await atlas()).generateAtlas({ cwd: ctx.cwd, path: input.path }),
  cli: { command: 'atlas generate', human: (r) => generateHuman(r) },
});

export const atlasValidate = defineOp({
  id: 'atlas.validate',
  summary:
    'Check every .atlas/ file against its JSON Schema (schemas/atlas/), the layout, ids and relations.',
  description:
    'Exit 1 when a problem is found. Symbolic links, files over 16 MiB, YAML nested too deep or lists too long are refused; generated files edited after generation are warnings.',
  input: z.strictObject({ path: pathField }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<AtlasValidation> => {
    const t = target(ctx, input);
    return (await atlas()).validateAtlas(t.cwd, t.path, t.confine);
  },
  cli: {
    command: 'atlas validate',
    exitCode: (r) => (r.ok ? 0 : 1),
    human: (r) =>
      [
        `${r.ok ? 'ok' : 'invalid'}: ${r.files} files, ${r.entities} entities, ${r.relations} relations`,
        ...r.errors.map(
          (i) => `error  .atlas/${i.file}${i.line ? `:${i.line}` : ''}: ${i.message} (${i.rule})`,
        ),
        ...r.warnings.map((i) => `warning .atlas/${i.file}: ${i.message} (${i.rule})`),
      ].join('\n'),
  },
});

export const atlasStatusOp = defineOp({
  id: 'atlas.status',
  summary:
    'Whether .atlas/generated/ is fresh, stale or missing, and why (the source fingerprint and changed paths).',
  input: z.strictObject({ path: pathField }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<AtlasStatus> => {
    const t = target(ctx, input);
    return (await atlas()).atlasStatus(t.cwd, t.path, t.confine);
  },
  cli: {
    command: 'atlas status',
    human: (s) =>
      [
        `${s.path}: atlas ${s.atlas}, generated ${s.generated}`,
        ...(s.invalidation_reason ? [`reason: ${s.invalidation_reason}`] : []),
        ...(s.revision ? [`generated at revision ${s.revision}`] : []),
      ].join('\n'),
  },
});

export const atlasRefresh = defineOp({
  id: 'atlas.refresh',
  summary:
    'Regenerate after source changes, recording the changed `paths` (default: those the status finds) as the reason.',
  input: z.strictObject({
    paths: z
      .array(z.string().min(1).max(4096))
      .max(10_000)
      .optional()
      .describe('Changed source paths (repository-relative).'),
    path: pathField,
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input): Promise<GenerateResult & { refreshed: string[] }> => {
    const a = await atlas();
    const { normalizeRelPath } = await import('../infra/index.js');
    let paths = (input.paths ?? []).map((p, i) => {
      const n = normalizeRelPath(p);
      if (n.escapes)
        throw new ValidationError(`paths[${i}]: '${p}' leaves the repository`, {
          field: `paths.${i}`,
          value: p,
          rule: 'inside_repository',
        });
      return n.path;
    });
    if (paths.length === 0) {
      const s = await a.atlasStatus(ctx.cwd, input.path);
      const c = s.changes;
      paths = c ? [...c.modified, ...c.added, ...c.removed] : [];
    }
    const shown =
      paths.slice(0, 20).join(', ') + (paths.length > 20 ? `, and ${paths.length - 20} more` : '');
    const reason = paths.length
      ? `refreshed after source changes: ${shown}`
      : 'refreshed: no source changes found';
    const r = await a.generateAtlas({ cwd: ctx.cwd, path: input.path, invalidationReason: reason });
    return { ...r, refreshed: paths };
  },
  cli: {
    command: 'atlas refresh',
    args: ['paths'],
    human: (r) => `${generateHuman(r)}\nreason: ${r.invalidation_reason}`,
  },
});

export const atlasQuery = defineOp({
  id: 'atlas.query',
  summary: 'Find .atlas/ entities by `expr`, with their one-hop relations.',
  description:
    'Forms: an id (symbol:src.app.ts.main), a kind (Symbol), Kind[id="x:y"], Kind[name="n"], Kind[file="dir"] (entities declared under a folder). Relations are those of mappings/ and overrides/links.yaml (maps_to, implements, verified_by), both directions. A kind that does not match the id, or nothing found, gives {ok: false, reason} (exit 1).',
  input: z.strictObject({
    expr: z.string().min(1).describe('The query: symbol:src.app.ts.main, Symbol, or Kind[attr="value"].'),
    path: pathField,
    project: projectField,
    repo: repoField,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('Most entities returned (default 50).'),
  }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<QueryResult> => {
    const t = target(ctx, input);
    return (await atlas()).queryAtlas({
      cwd: t.cwd,
      path: t.path,
      expr: input.expr,
      limit: input.limit,
      confine: t.confine,
      // Agents and browsers see what policy/access.yaml serves; the user at the CLI sees everything.
      ...(onCli(ctx) ? {} : { maxClassification: 'policy' as const }),
    });
  },
  cli: {
    command: 'atlas query',
    args: ['expr'],
    exitCode: (r) => (r.ok ? 0 : 1),
    human: (r) =>
      r.ok
        ? [
            `${r.total} match(es)${r.truncated ? ` (first ${r.entities.length})` : ''}`,
            ...r.entities.flatMap((e) => [
              `${e.id}  ${e.kind}  ${e.name}${e.file ? `  ${e.file}${e.line ? `:${e.line}` : ''}` : ''}`,
              ...e.related.map((x) => `  ${x.direction === 'out' ? '->' : '<-'} ${x.relation} ${x.id}`),
            ]),
          ].join('\n')
        : `no match: ${r.reason}${r.suggestions?.length ? ` (did you mean ${r.suggestions.join(', ')}?)` : ''}`,
  },
  mcp: {
    tool: 'hub_atlas_query',
    when: "Use when you need a repository's concepts, symbols or tests and their links.",
  },
  http: [{ method: 'GET', route: '/v3/ops/atlas/query', input: 'query' }],
});
