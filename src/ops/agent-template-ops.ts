import { basename, resolve } from 'node:path';
import * as z from 'zod';
import {
  type AnswerFacts,
  bundledTemplatesDir,
  parseAnswers,
  type RenderedTemplate,
  renderTemplate,
  resolveTemplate,
  TEMPLATE_LIMITS,
  type TemplateCatalog,
  type TemplateRoots,
  templateCatalog,
  templateJsonSchema,
  type ValidationReport,
  VENDOR_IDS,
  validateTemplates,
  vendorOf,
} from '../agents/index.js';
import { readFileBounded } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';

/** The template roots of a request: the package's bundled templates and the workspace's overlays. */
export function templateRoots(ctx: OpContext): TemplateRoots {
  return { bundledDir: bundledTemplatesDir(), workspaceRoot: ctx.root() };
}

/** What an input's `default_from` reads: the manifest's workspace name, else the workspace folder's name. */
export function answerFacts(ctx: OpContext): AnswerFacts {
  const root = ctx.root();
  let name: string | undefined;
  try {
    const m = ctx.workspace().file.manifest;
    name = m.workspace?.name ?? m.name;
  } catch {
    name = undefined;
  }
  return { workspace_name: name ?? basename(root), directory_name: basename(root) };
}

/**
 * Reads `--answers-file` (YAML or JSON): a regular file of at most 64 KiB. On the CLI the user named the path; over
 * MCP and HTTP its real path must lie inside the workspace, so a remote caller cannot read other files through it.
 */
export function readAnswersFile(
  ctx: OpContext,
  path: string | undefined,
): Record<string, unknown> | undefined {
  if (path === undefined) return undefined;
  const bytes = readFileBounded(resolve(ctx.cwd, path), {
    maxBytes: TEMPLATE_LIMITS.answersFileBytes,
    root: ctx.readStdin ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'answers_file',
    shown: path,
  });
  return parseAnswers(bytes.toString('utf8'), path);
}

export const templateId = z.string().min(1).max(200).describe('Agent template id.');
const vendorField = cliHelp(
  z.string().optional().describe('Vendor whose file format to use, e.g. claude_code, cursor or codex.'),
  `Vendor whose file format to use: ${VENDOR_IDS.join(', ')}.`,
);
export const answersFileField = z
  .string()
  .min(1)
  .optional()
  .describe('YAML or JSON file of answers by input name; missing ones take defaults.');

/** Renders `id` for the request: overlays of this workspace, answers from the file, defaults from the workspace. */
export function renderFor(
  ctx: OpContext,
  input: { id: string; vendor?: string; answers_file?: string },
): { rendered: RenderedTemplate; source: string; roots: TemplateRoots } {
  const vendor = input.vendor === undefined ? undefined : vendorOf(input.vendor);
  const roots = templateRoots(ctx);
  const t = resolveTemplate(input.id, roots);
  const answers = readAnswersFile(ctx, input.answers_file);
  return {
    rendered: renderTemplate(t, answers, { vendor, facts: answerFacts(ctx) }),
    source: t.source,
    roots,
  };
}

export const agentList = defineOp({
  id: 'agent.list',
  summary: 'The agent templates (category, scope, source) and the taxonomy.',
  description:
    'Bundled templates, then overlays of this workspace: team .hub-agents/<id>/ (committed) and personal ' +
    '.hub/.agent-templates/<id>/ (gitignored); source is bundled, overlay or merged. A template whose overlay ' +
    'cannot be read is listed under problems (file and line) and the command exits 1.',
  input: z.strictObject({}),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx): TemplateCatalog => templateCatalog(templateRoots(ctx)),
  cli: {
    command: 'agent list',
    human: (r) =>
      [
        table(
          r.templates.map((t) => [t.id, t.ui.category, t.scope, t.source, t.name]),
          ['TEMPLATE', 'CATEGORY', 'SCOPE', 'SOURCE', 'NAME'],
        ),
        ...r.problems.map((p) => `problem: ${p.message}`),
      ].join('\n'),
    exitCode: (r) => (r.problems.length > 0 ? 1 : 0),
  },
  mcp: { tool: 'hub_agent_catalog', when: 'Use when choosing a template.' },
  http: [{ method: 'GET', route: '/v3/agents/catalog', input: 'none' }],
});

export const agentShow = defineOp({
  id: 'agent.show',
  summary:
    'Show one agent template: its merged template.yaml, source, overlay folders and where each file comes from.',
  input: z.strictObject({ id: templateId }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const t = resolveTemplate(input.id, templateRoots(ctx));
    return {
      id: t.id,
      source: t.source,
      overlay_paths: t.layers.filter((l) => l.origin !== 'bundled').map((l) => l.shownDir),
      manifest: t.manifest,
      files: [...t.files.values()]
        .map((f) => ({ name: f.name, origin: f.origin, path: f.shown }))
        .sort((a, b) => (a.name < b.name ? -1 : 1)),
    };
  },
  cli: {
    command: 'agent show',
    args: ['id'],
    human: (r) =>
      [
        `${r.id} (${r.source}): ${r.manifest.name}`,
        `  ${r.manifest.ui.category}, ${r.manifest.scope} scope, ${r.manifest.archetype}`,
        `  ${r.manifest.description}`,
        ...(r.overlay_paths.length ? [`  overlays: ${r.overlay_paths.join(', ')}`] : []),
        `  inputs: ${Object.entries(r.manifest.inputs)
          .map(([k, i]) => (i.default !== undefined ? `${k}=${String(i.default)}` : k))
          .join(', ')}`,
        '  files:',
        ...r.files.map((f) => `    ${f.name} (${f.origin})`),
      ].join('\n'),
  },
});

export const agentSchema = defineOp({
  id: 'agent.schema',
  summary:
    'Print the JSON Schema of template.yaml (schema version 1), as in schemas/agent-template.schema.json.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: () => templateJsonSchema(),
  cli: { command: 'agent schema', human: (r) => JSON.stringify(r, null, 2) },
});

export const agentValidate = defineOp({
  id: 'agent.validate',
  summary:
    'Check agent templates: manifests, overlays, variables and partials, delegates, tools, every vendor.',
  description:
    'Every template (or the one named): template.yaml of each layer loads and merges, every .tpl parses and uses ' +
    'only declared variables (an unknown one is reported with file, line and variable), partials exist without ' +
    'cycles, delegates_to names templates that exist, mcp_tools names tools hub serves, and it renders for every ' +
    'vendor with the front-matter that vendor requires. Exit 1 when anything is wrong.',
  input: z.strictObject({ id: templateId.optional() }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<ValidationReport> => {
    const { loadOperations } = await import('./operation-modules.js');
    const tools = new Set((await loadOperations()).flatMap((op) => (op.mcp ? [op.mcp.tool] : [])));
    return validateTemplates(templateRoots(ctx), { id: input.id, tools });
  },
  cli: {
    command: 'agent validate',
    args: ['id'],
    human: (r) =>
      [
        ...r.templates.flatMap((t) => [
          `${t.ok ? 'ok     ' : 'invalid'} ${t.id}${t.source ? ` (${t.source})` : ''}`,
          ...t.issues.map(
            (i) =>
              `  ${i.file}${i.line ? `:${i.line}` : ''}: ${i.field ? `${i.field}: ` : ''}${i.variable ? `variable '${i.variable}': ` : ''}${i.message}`,
          ),
        ]),
        ...r.problems.map((p) => `problem: ${p.message}`),
      ].join('\n'),
    exitCode: (r) => (r.ok ? 0 : 1),
  },
});

export const agentPreview = defineOp({
  id: 'agent.preview',
  summary: "Render an agent template as a vendor's file without writing anything.",
  description:
    'Answers come from --answers-file (YAML or JSON; over MCP and HTTP a file inside the workspace); missing ' +
    'answers take their defaults, unknown ones are refused. hub never prompts.',
  input: z.strictObject({ id: templateId, vendor: vendorField, answers_file: answersFileField }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const { rendered: r, source } = renderFor(ctx, input);
    return {
      template_id: r.template_id,
      vendor: r.vendor,
      filename: r.filename,
      source,
      front_matter: r.frontMatter,
      content: r.content,
      ...(r.fragment !== undefined ? { fragment: r.fragment } : {}),
      answers: r.answers,
      defaulted: r.defaulted,
    };
  },
  cli: { command: 'agent preview', args: ['id'], human: (r) => r.content.trimEnd() },
  mcp: { tool: 'hub_agent_preview', when: 'Use when checking what a template installs.' },
  http: [{ method: 'GET', route: '/v3/agents/templates/{id}/preview', input: 'query' }],
});
