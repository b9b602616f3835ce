import { dirname, join } from 'node:path';
import * as z from 'zod';
import type { FileWritePlan } from '../agents/index.js';
import {
  type BundledSkill,
  bundledSkill,
  bundledTemplatesDir,
  type InstallRoots,
  type InstallScope,
  listBundledSkills,
  planSkillInstall,
  type VendorSpec,
  vendorOf,
} from '../agents/index.js';
import { table } from './format.js';
import {
  applyPlans,
  checkScopeOnSurface,
  filesHuman,
  type InstallFiles,
  installFields,
  installRoots,
} from './install-support.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

/** The bundled skills folder: `templates/skills/`, beside the bundled agent templates in the package. */
export const bundledSkillsDir = () => join(dirname(bundledTemplatesDir()), 'skills');

/** The plans that install skills (all bundled ones when `names` is empty) for a vendor in a scope. */
export function planSkills(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  names: readonly string[] | undefined,
  force: boolean | undefined,
): { skills: BundledSkill[]; plans: FileWritePlan[] } {
  const all = listBundledSkills(bundledSkillsDir());
  const skills = names?.length ? [...new Set(names)].map((n) => bundledSkill(all, n)) : all;
  return { skills, plans: skills.flatMap((s) => planSkillInstall(vendor, scope, roots, s, { force })) };
}

export const skillsList = defineOp({
  id: 'skills.list',
  summary: 'The bundled Agent Skills hub installs (name and description).',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: () => ({
    skills: listBundledSkills(bundledSkillsDir()).map((s) => ({
      name: s.name,
      description: s.description,
      files: s.files,
    })),
  }),
  cli: {
    command: 'skills list',
    human: (r) =>
      table(
        r.skills.map((s) => [s.name, s.description.split('. ')[0]!]),
        ['SKILL', 'WHAT'],
      ),
  },
});

export interface SkillsInstallResult extends InstallFiles {
  target: string;
  scope: InstallScope;
  skills: string[];
}

export const skillsInstall = defineOp({
  id: 'skills.install',
  summary: 'Install bundled skills (SKILL.md folders) where a coding-agent vendor reads them.',
  description:
    'Agent Skills format (name equal to its folder). A file you changed since hub wrote it, or one hub did not ' +
    'write, is a conflict: nothing is written unless --force. Installing again is a no-op. Over MCP and HTTP ' +
    'only project scope (the served workspace’s repository).',
  input: z.strictObject({
    scope: installFields.scope,
    target: installFields.target,
    skill: z
      .array(z.string().min(1).max(64))
      .max(100)
      .optional()
      .describe('Skills to install (default: every bundled one).'),
    force: installFields.force,
    dry_run: installFields.dry_run,
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input): SkillsInstallResult => {
    const vendor = vendorOf(input.target, 'target');
    checkScopeOnSurface(ctx, input.scope);
    const roots = installRoots(ctx, input.scope);
    const { skills, plans } = planSkills(vendor, input.scope, roots, input.skill, input.force);
    return {
      target: vendor.id,
      scope: input.scope,
      skills: skills.map((s) => s.name),
      ...applyPlans(plans, input.dry_run ?? false),
    };
  },
  cli: {
    command: 'skills install',
    human: (r) => filesHuman(r) || 'no bundled skills',
    exitCode: (r) => (r.files.some((f) => f.action === 'conflict') ? 1 : 0),
  },
  mcp: { tool: 'hub_skills_install', when: "Use when a vendor should get hub's skills." },
  http: [{ method: 'POST', route: '/v3/agents/skills/install', input: 'body' }],
});
