import { basename, dirname, resolve } from 'node:path';
import * as z from 'zod';
import {
  bundledTemplatesDir,
  type FileWritePlan,
  HUB_MCP_SERVER,
  type InstallRoots,
  type InstallScope,
  listBundledSkills,
  parseAnswers,
  planAgentArtifact,
  planMcpInstall,
  renderTemplate,
  resolveTemplate,
  type TemplateRoots,
  type VendorSpec,
  vendorOf,
} from '../agents/index.js';
import { readFileBounded } from '../infra/index.js';
import { locateManifest } from '../model/index.js';
import { cliHelp, unlisted } from './cli-help.js';
import type { OpContext } from './context.js';
import {
  applyPlans,
  checkScopeOnSurface,
  filesHuman,
  hubServerCommand,
  type InstallFiles,
  installedTools,
  installFields,
  installRoots,
  onCli,
} from './install-support.js';
import { defineOp, WRITES } from './registry.js';
import { bundledSkillsDir, planSkills } from './skills-ops.js';

/** An answers file is a small YAML or JSON mapping. */
const MAX_ANSWERS_FILE = 256 * 1024;

/** The workspace's folder when there is a manifest at or above the working folder (overlays live there). */
function workspaceRootOf(ctx: OpContext): string | undefined {
  try {
    return dirname(locateManifest(ctx.cwd, ctx.definition));
  } catch {
    return undefined;
  }
}

/** Where templates come from: the package's bundle and the workspace's overlays. */
export const templateRoots = (ctx: OpContext): TemplateRoots => ({
  bundledDir: bundledTemplatesDir(),
  workspaceRoot: workspaceRootOf(ctx),
});

/**
 * The answers: the file's, then the inline ones over them. On the CLI the user named the file and may read what
 * they can; over MCP and HTTP its real path must lie inside the workspace (as with `--notes-file`).
 */
function answersOf(ctx: OpContext, file: string | undefined, inline: Record<string, unknown> | undefined) {
  if (file === undefined) return inline;
  const bytes = readFileBounded(resolve(onCli(ctx) ? ctx.cwd : ctx.root(), file), {
    maxBytes: MAX_ANSWERS_FILE,
    root: onCli(ctx) ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'answers_file',
    shown: file,
  });
  return { ...parseAnswers(bytes.toString('utf8'), file), ...inline };
}

/** `workspace_name` and `directory_name` for inputs that default from them. */
function factsOf(ctx: OpContext, roots: InstallRoots): { workspace_name?: string; directory_name?: string } {
  const ws = workspaceRootOf(ctx);
  let name: string | undefined;
  try {
    name = ctx.workspace().file.manifest.workspace?.name;
  } catch {
    name = undefined;
  }
  return {
    workspace_name: name ?? (ws ? basename(ws) : undefined),
    directory_name: basename(roots.projectRoot ?? ctx.cwd),
  };
}

export interface AgentCreateResult extends InstallFiles {
  template_id: string;
  source: string;
  vendor: string;
  kind: VendorSpec['kind'];
  scope: InstallScope;
  /** The agent file or SKILL.md. */
  path: string;
  action: FileWritePlan['action'];
  answers: Record<string, string>;
  defaulted: string[];
  skills: { installed: string[]; not_bundled: string[] };
  mcp: { path: string; root_key: string; name: string; action: FileWritePlan['action'] } | null;
}

export const agentCreate = defineOp({
  id: 'agent.create',
  summary: 'Render an agent template for a vendor and install it where the vendor reads agents.',
  description:
    'Agent vendors get <dir>/agents/<id>.md (.agent.md for github_copilot), skill vendors <dir>/skills/<id>/SKILL.md, ' +
    'with the front-matter each vendor reads. --install-skills adds the template’s recommended skills, --install-mcp ' +
    'the `hub mcp serve` entry. Every file is planned first; a conflict (a file you changed, or one hub did not ' +
    'write) refuses the whole create and writes nothing unless --force. hub never prompts: answers come from ' +
    '--answers-file and the inputs’ defaults (--no-prompt is accepted and changes nothing).',
  input: z.strictObject({
    id: z.string().min(1).max(64).describe('Agent template id.'),
    vendor: installFields.target,
    scope: installFields.scope,
    answers_file: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('YAML or JSON file of answers to the inputs.'),
    answers: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe('Answers as a JSON object (over the file’s).'),
    // `prompt` (default true) gives the CLI `--no-prompt`, as agent export has it: a field named no_prompt makes
    // commander read `--no-prompt` as the negation of an option `prompt`, which the fast parser cannot mirror.
    prompt: unlisted(
      cliHelp(
        z.boolean().default(true),
        'Accepted for scripts; hub never prompts (missing answers take defaults).',
      ),
    ),
    install_skills: z.boolean().optional().describe('Also install the template’s recommended skills.'),
    install_mcp: z.boolean().optional().describe('Also add the hub MCP server to the vendor’s MCP file.'),
    mcp_tools: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe('Tools the MCP entry serves (default: the template’s own).'),
    force: installFields.force,
    dry_run: installFields.dry_run,
  }),
  gate: 'none',
  attributes: WRITES,
  handler: async (ctx, input): Promise<AgentCreateResult> => {
    const vendor = vendorOf(input.vendor, 'vendor');
    checkScopeOnSurface(ctx, input.scope);
    const roots = installRoots(ctx, input.scope);
    const template = resolveTemplate(input.id, templateRoots(ctx));
    const rendered = renderTemplate(template, answersOf(ctx, input.answers_file, input.answers), {
      vendor,
      facts: factsOf(ctx, roots),
    });
    const main = planAgentArtifact(vendor, input.scope, roots, template.id, rendered.content, {
      force: input.force,
    });
    const plans = [main];
    const skills = { installed: [] as string[], not_bundled: [] as string[] };
    if (input.install_skills) {
      const bundled = new Set(listBundledSkills(bundledSkillsDir()).map((s) => s.name));
      const wanted = template.manifest.recommended_skills;
      skills.not_bundled = wanted.filter((s) => !bundled.has(s));
      const have = wanted.filter((s) => bundled.has(s));
      if (have.length > 0) {
        plans.push(...planSkills(vendor, input.scope, roots, have, input.force).plans);
        skills.installed = have;
      }
    }
    let mcp: AgentCreateResult['mcp'] = null;
    if (input.install_mcp) {
      // The entry serves the template's own tools (its mcp_tools) and lets the agent enable more at run time.
      // `mcp_tools` opts out: exactly that selection. A template without tools of its own gets the core default.
      const own = template.manifest.mcp_tools;
      const served =
        input.mcp_tools !== undefined
          ? await installedTools(input.mcp_tools, undefined, 'mcp_tools')
          : await installedTools(own.length > 0 ? own.join(',') : undefined, true, 'mcp_tools');
      const m = planMcpInstall({
        vendor,
        scope: input.scope,
        roots,
        name: HUB_MCP_SERVER,
        server: hubServerCommand(ctx, served),
        force: input.force,
        widen: true,
      });
      plans.push(m.plan);
      mcp = { path: m.path, root_key: m.root_key, name: m.name, action: m.plan.action };
    }
    return {
      template_id: template.id,
      source: template.source,
      vendor: vendor.id,
      kind: vendor.kind,
      scope: input.scope,
      path: main.path,
      action: main.action,
      answers: rendered.answers,
      defaulted: rendered.defaulted,
      skills,
      mcp,
      ...applyPlans(plans, input.dry_run ?? false),
    };
  },
  cli: {
    command: 'agent create',
    args: ['id'],
    human: (r) =>
      [
        filesHuman(r),
        r.skills.not_bundled.length ? `not bundled (skipped): ${r.skills.not_bundled.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    exitCode: (r) => (r.files.some((f) => f.action === 'conflict') ? 1 : 0),
  },
  mcp: { tool: 'hub_agent_create', when: 'Use when a vendor should get a hub agent.' },
  http: [{ method: 'POST', route: '/v3/agents/templates/{id}/create', input: 'body' }],
});
