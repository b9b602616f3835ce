import { resolve } from 'node:path';
import * as z from 'zod';
import {
  type ExportResult,
  exportTemplate,
  initOverlay,
  knownTemplateId,
  type OverlayInitResult,
  overlayLocation,
  renderTemplate,
  resolveTemplate,
  vendorOf,
} from '../agents/index.js';
import { userSettingFile } from '../model/index.js';
import { launchEditor } from '../workspace/index.js';
import {
  answerFacts,
  answersFileField,
  readAnswersFile,
  templateId,
  templateRoots,
} from './agent-template-ops.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';

export const agentExport = defineOp({
  id: 'agent.export',
  summary:
    'Export an agent template to a folder: <id>.md, AGENTS.md.fragment (when it has one) and manifest.json.',
  description:
    'Rendered with the answers of --answers-file (YAML or JSON), the rest from their defaults; an unknown answer, or ' +
    'a required one without an answer or a default, is refused by name. hub never prompts, so --no-prompt is the ' +
    'behaviour either way. A second export with the same answers changes nothing; a file hub wrote is replaced, a ' +
    'file someone changed (or hub never wrote) is refused unless --force, and then nothing is written.',
  input: z.strictObject({
    id: templateId,
    output: z.string().min(1).default('.').describe('Folder to write into (created when missing).'),
    vendor: z
      .string()
      .optional()
      .describe("Use this vendor's front-matter in <id>.md (default: name and description)."),
    answers_file: answersFileField,
    prompt: z
      .boolean()
      .default(true)
      .describe('Accepted for scripts; hub never prompts (missing answers take defaults).'),
    force: z.boolean().optional().describe('Replace files that were changed since hub wrote them.'),
    dry_run: z.boolean().optional().describe('Report what would be written; write nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): ExportResult => {
    const vendor = input.vendor === undefined ? undefined : vendorOf(input.vendor);
    const t = resolveTemplate(input.id, templateRoots(ctx));
    const answers = readAnswersFile(ctx, input.answers_file);
    const r = renderTemplate(t, answers, { vendor, facts: answerFacts(ctx) });
    return exportTemplate(t, r, resolve(ctx.cwd, input.output), {
      force: input.force,
      dryRun: input.dry_run,
    });
  },
  cli: {
    command: 'agent export',
    args: ['id'],
    short: { output: 'o' },
    human: (r) =>
      [
        `${r.dry_run ? 'would export' : 'exported'} ${r.template_id} (${r.source}) to ${r.dir}`,
        ...r.files.map((f) => `  ${f.action.padEnd(9)} ${f.name}`),
      ].join('\n'),
  },
});

type OverlayInitOutput = OverlayInitResult & { opened: boolean; editor?: string; open_skipped?: string };

const overlayScope = (local: boolean | undefined) => (local ? 'local' : 'committed');

export const agentOverlayInit = defineOp({
  id: 'agent.overlay.init',
  summary:
    "Scaffold an overlay of an agent template: the team's .hub-agents/<id>/ or, with --local, your own.",
  description:
    '--mode full (default) copies template.yaml and every .tpl the template resolves to; --mode minimal writes a ' +
    'template.yaml stub and body.md.tpl. The personal overlay (.hub/.agent-templates/<id>/, gitignored) starts ' +
    'from the team one. A folder that already holds files is refused unless --force. --open runs config.editor on ' +
    'the folder (no shell; not in agent mode, which prints the path). Over HTTP: the team overlay only.',
  input: z.strictObject({
    id: templateId,
    local: z
      .boolean()
      .optional()
      .describe('Your personal overlay (.hub/.agent-templates/<id>/) instead of the team one.'),
    mode: z
      .enum(['full', 'minimal'])
      .default('full')
      .describe('full copies everything; minimal a stub and the body.'),
    force: z.boolean().optional().describe('Write over an overlay folder that already holds files.'),
    open: z.boolean().optional().describe('Open the folder in config.editor afterwards.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<OverlayInitOutput> => {
    const r = initOverlay(input.id, templateRoots(ctx), {
      scope: overlayScope(input.local),
      mode: input.mode,
      force: input.force,
    });
    if (!input.open) return { ...r, opened: false };
    if (ctx.agentMode) return { ...r, opened: false, open_skipped: 'agent mode never starts an editor' };
    const app = ctx.appConfig();
    const run = await launchEditor(app.config.config.editor, r.path, ctx.env, {
      configFile: userSettingFile(app, ctx.env, ctx.cwd),
    });
    return { ...r, opened: true, editor: run.command };
  },
  cli: {
    command: 'agent overlay init',
    args: ['id'],
    human: (r) =>
      [
        `wrote ${r.scope} overlay ${r.relative} (${r.mode}): ${r.written.join(', ')}`,
        r.opened ? `opened in ${r.editor}` : r.path,
        `next: edit it, then hub agent validate ${r.id}`,
      ].join('\n'),
  },
  http: [
    {
      method: 'POST',
      route: '/v3/agents/templates/{id}/overlay/init',
      input: 'body',
      fixed: { local: false, open: false },
    },
  ],
});

export const agentOverlayPath = defineOp({
  id: 'agent.overlay.path',
  summary:
    "Print where an agent template's overlay lives (team, or with --local personal) and whether it exists.",
  input: z.strictObject({
    id: templateId,
    local: z.boolean().optional().describe('The personal overlay (.hub/.agent-templates/<id>/).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const roots = templateRoots(ctx);
    // Only templates that exist (readable or not: the path is how a broken overlay gets fixed); a typo gets
    // "did you mean" rather than a path nobody reads.
    knownTemplateId(input.id, roots);
    return overlayLocation(input.id, roots, overlayScope(input.local));
  },
  cli: { command: 'agent overlay path', args: ['id'], human: (r) => r.path },
});
