import * as z from 'zod';
import {
  type FileWritePlan,
  listBundledSkills,
  parseTagFilters,
  planMcpInstall,
  selectProfileRepos,
  vendorOf,
} from '../agents/index.js';
import { dispatchScopes } from './agent-dispatch-deps.js';
import { cliHelp } from './cli-help.js';
import {
  applyPlans,
  filesHuman,
  hubServerCommand,
  type InstallFiles,
  installFields,
  installRoots,
} from './install-support.js';
import { defineOp, WRITES_IDEMPOTENT } from './registry.js';
import { bundledSkillsDir, planSkills } from './skills-ops.js';

/** The MCP server id hub installs: its own (`hub mcp serve`). Other ids of a profile have no installer here. */
const HUB_MCP_ID = 'hub';

export interface AppliedRepo {
  repository: string;
  /** The checkout's git root the files go under (project scope). */
  root: string;
  skills: string[];
  mcp: { path: string; action: FileWritePlan['action'] } | null;
  /** What the profile asks for that hub cannot install, and why. */
  not_installed: Array<{ kind: 'skill' | 'mcp' | 'rule'; id: string; reason: string }>;
}

export interface AgentApplyResult extends InstallFiles {
  vendor: string;
  repos: AppliedRepo[];
  skipped: Array<{ repository: string; reason: string; detail: string }>;
}

export const agentApply = defineOp({
  id: 'agent.apply',
  summary: "Install for a vendor what repositories' agent_profile requires (skills, the hub MCP entry).",
  description:
    'For every repository of -p (and -n) whose tags match every --tag and whose profile names the vendor (or no ' +
    'vendors), in its checkout (project scope): the profile’s bundled skills and, when its mcp lists `hub`, the ' +
    '`hub mcp serve` entry. Skills hub does not bundle, other MCP ids and rules are reported, not installed. All ' +
    'files are planned first and written all or nothing.',
  input: z.strictObject({
    vendor: installFields.target,
    project: cliHelp(z.string().min(1).max(200).optional(), 'Project name (default: every project).'),
    repo: z.string().min(1).max(200).optional().describe('Only this repository (needs `project`).'),
    tag: z.array(z.string().min(1).max(200)).max(50).optional().describe('Only repositories tagged k=v.'),
    force: installFields.force,
    dry_run: installFields.dry_run,
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input): AgentApplyResult => {
    const vendor = vendorOf(input.vendor, 'vendor');
    const catalog = ctx.workspace().catalog;
    const sel = selectProfileRepos(catalog, {
      project: input.project,
      repo: input.repo,
      tags: parseTagFilters(input.tag),
      vendor: vendor.id,
    });
    const bundled = new Set(listBundledSkills(bundledSkillsDir()).map((s) => s.name));
    const skipped: AgentApplyResult['skipped'] = sel.skipped.map((s) => ({ ...s }));
    const repos: AppliedRepo[] = [];
    const plans: FileWritePlan[] = [];
    for (const { repo, profile } of sel.repos) {
      const scope = dispatchScopes(ctx, repo).project;
      if (!scope.base) {
        skipped.push({ repository: repo.id, reason: 'checkout', detail: scope.unavailable ?? 'no checkout' });
        continue;
      }
      const roots = installRoots(ctx, 'project', scope.base);
      const row: AppliedRepo = {
        repository: repo.id,
        root: scope.base,
        skills: [],
        mcp: null,
        not_installed: [],
      };
      const skills = profile.skills.filter((s) => bundled.has(s));
      for (const s of profile.skills.filter((x) => !bundled.has(x)))
        row.not_installed.push({ kind: 'skill', id: s, reason: 'hub bundles no such skill' });
      if (skills.length > 0) plans.push(...planSkills(vendor, 'project', roots, skills, input.force).plans);
      row.skills = skills;
      for (const id of profile.mcp) {
        if (id !== HUB_MCP_ID) {
          row.not_installed.push({
            kind: 'mcp',
            id,
            reason: `hub installs only its own server '${HUB_MCP_ID}'`,
          });
          continue;
        }
        if (!vendor.mcp.project) {
          row.not_installed.push({
            kind: 'mcp',
            id,
            reason: `${vendor.label} has no project-scope MCP file`,
          });
          continue;
        }
        const m = planMcpInstall({
          vendor,
          scope: 'project',
          roots,
          name: HUB_MCP_ID,
          server: hubServerCommand(ctx),
          force: input.force,
        });
        plans.push(m.plan);
        row.mcp = { path: m.path, action: m.plan.action };
      }
      for (const id of profile.rules)
        row.not_installed.push({ kind: 'rule', id, reason: 'hub bundles no rules catalog' });
      repos.push(row);
    }
    return { vendor: vendor.id, repos, skipped, ...applyPlans(plans, input.dry_run ?? false) };
  },
  cli: {
    command: 'agent apply',
    short: { project: 'p', repo: 'n' },
    human: (r) =>
      [
        filesHuman(r) || 'nothing to install',
        ...r.repos.flatMap((x) =>
          x.not_installed.map((n) => `${x.repository}: ${n.kind} ${n.id} not installed: ${n.reason}`),
        ),
        ...r.skipped.map((s) => `${s.repository}: skipped (${s.reason}: ${s.detail})`),
      ].join('\n'),
    exitCode: (r) => (r.files.some((f) => f.action === 'conflict') ? 1 : 0),
  },
  mcp: { tool: 'hub_agent_apply', when: 'Use when those needs are not installed.' },
  http: [{ method: 'POST', route: '/v3/agents/apply', input: 'body' }],
});
