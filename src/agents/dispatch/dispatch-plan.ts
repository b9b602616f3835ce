import type { Catalog } from '../../catalog/index.js';
import type { InstructionLayer } from '../../profile/index.js';
import type { ForeignClaim } from '../prompts/repo-handoff.js';
import { VENDOR_IDS, type VendorId } from '../vendors.js';
import { type ArtifactState, agentArtifact, skillArtifact } from './artifacts.js';
import { checkTarget, checkTask, type DispatchInput } from './dispatch-input.js';
import { handoffOf, scopedArgs } from './handoff.js';
import { type LaunchHint, launchHint } from './launch-hints.js';
import { commandLine } from './shell.js';

export interface DispatchPlan {
  template: { id: string; label: string; scope: string; category: string | null; source: string };
  vendor: VendorId;
  project: string | null;
  repo: string | null;
  component: string | null;
  task: string;
  warnings: string[];
  install: {
    kind: 'agent' | 'skill';
    name: string;
    /** The spec's "artifact exists, path": installed in either scope, and where (else where create writes it). */
    exists: boolean;
    path: string | null;
    project_scope: ArtifactState;
    user_scope: ArtifactState;
    installed: boolean;
    installed_in: 'project' | 'user' | null;
    needed: boolean;
    command: string;
    cwd: string | null;
  };
  launch: Partial<Record<VendorId, LaunchHint>>;
  handoff: {
    tier: number;
    context_pack_command: string;
    context_compile_command: string | null;
    prompt: string | null;
    prompt_command: string;
    effective_instructions: { layers: InstructionLayer[]; text: string };
  };
  out_of_scope: {
    repositories: { count: number; ids: string[] };
    claims: ForeignClaim[];
    limits: string[];
  };
  required_profile_skills?: string[];
  missing_profile_skills?: string[];
  profile_apply_command?: string;
}

/**
 * The dispatch plan of a template for a vendor and a target: whether the agent is installed (and the command
 * that installs it), how to launch it per vendor, the hand-off (tiered pack, compile, prompt, instructions),
 * what is out of scope, and with a profile the skills it requires and which are missing. Reads files to judge
 * installs; writes nothing.
 */
export function dispatchPlan(catalog: Catalog, i: DispatchInput): DispatchPlan {
  const t = i.template;
  checkTarget(t, i.project, i.repo);
  const task = checkTask(i.task ?? t.label) || t.label;
  const h = handoffOf(catalog, {
    project: i.project,
    repo: i.repo,
    component: i.component,
    task,
    agentId: i.agentId,
    agent: { id: t.id, label: t.label, delegates_to: t.delegates_to, limits: t.limits },
    claims: i.claims,
    path: i.repo ? (i.scopes.project.base ?? null) : null,
    definitionArgs: i.definitionArgs,
  });
  const { repo, profile } = h;
  const vendor = i.vendor.id;
  const warnings: string[] = [];
  if (t.vendors !== null && !t.vendors.includes(vendor))
    warnings.push(
      `template ${t.id} declares no artifact for ${vendor} (it declares ${t.vendors.join(', ') || 'none'})`,
    );
  if (profile?.vendors && !profile.vendors.includes(vendor))
    warnings.push(
      `the agent_profile of ${repo!.id} names vendors ${profile.vendors.join(', ')}, not ${vendor}`,
    );

  // Install: the agent file or skill, project scope (the repository checkout) first, then the user's home.
  const projectState = agentArtifact(i.vendor, 'project', i.scopes.project, t.id);
  const userState = agentArtifact(i.vendor, 'user', i.scopes.user, t.id);
  const installedIn = projectState.exists ? 'project' : userState.exists ? 'user' : null;
  const scope = i.scopes.project.base ? 'project' : 'user';
  const create = commandLine([
    'hub',
    'agent',
    'create',
    t.id,
    '--vendor',
    vendor,
    '--scope',
    scope,
    t.recommended_skills.length ? '--install-skills' : undefined,
  ]);

  // Launch: the requested vendor first, then the others the template declares.
  const label = repo
    ? `${task} (repository ${repo.id})`
    : i.project
      ? `${task} (project ${i.project})`
      : task;
  // The launch prompt points at the hand-off without repeating the task (already in the prompt) in nested quotes.
  const readHandoff = commandLine([
    'hub',
    ...i.definitionArgs,
    'prompt',
    'show',
    'repo-handoff',
    ...scopedArgs(i.project, i.repo),
    ...(i.component ? ['--component', i.component] : []),
    '--template',
    t.id,
  ]);
  const launchPrompt = repo ? `${label}. First read the hand-off: ${readHandoff}` : label;
  const launch: Partial<Record<VendorId, LaunchHint>> = {};
  const order = [
    vendor,
    ...VENDOR_IDS.filter((v) => v !== vendor && (t.vendors === null || t.vendors.includes(v))),
  ];
  for (const v of order)
    launch[v] = launchHint(v, { name: t.id, prompt: launchPrompt, cwd: i.scopes.project.base });

  const plan: DispatchPlan = {
    template: { id: t.id, label: t.label, scope: t.scope, category: t.category ?? null, source: t.source },
    vendor,
    project: i.project ?? null,
    repo: i.repo ?? null,
    component: i.component ?? null,
    task,
    warnings,
    install: {
      kind: i.vendor.kind,
      name: t.id,
      exists: installedIn !== null,
      path:
        installedIn === 'user' || (installedIn === null && scope === 'user')
          ? userState.path
          : projectState.path,
      project_scope: projectState,
      user_scope: userState,
      installed: installedIn !== null,
      installed_in: installedIn,
      needed: installedIn === null,
      command: create,
      cwd: scope === 'project' ? (i.scopes.project.base ?? null) : null,
    },
    launch,
    handoff: {
      tier: h.tier,
      context_pack_command: h.context_pack_command,
      context_compile_command: h.context_compile_command,
      prompt: h.prompt,
      prompt_command: h.prompt_command,
      effective_instructions: h.effective_instructions,
    },
    out_of_scope: h.out_of_scope,
  };
  if (profile?.has_profile && repo) {
    plan.required_profile_skills = profile.skills;
    plan.missing_profile_skills = profile.skills.filter(
      (s) =>
        !skillArtifact(i.vendor, 'project', i.scopes.project, s).exists &&
        !skillArtifact(i.vendor, 'user', i.scopes.user, s).exists,
    );
    plan.profile_apply_command = commandLine([
      'hub',
      ...i.definitionArgs,
      'agent',
      'apply',
      '--vendor',
      vendor,
      ...scopedArgs(i.project, i.repo),
    ]);
  }
  return plan;
}
