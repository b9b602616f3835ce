import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalog, type Checkouts, checkoutsOf } from '../catalog/index.js';
import type { HealthReport } from './health.js';

export type GateState = 'active' | 'inactive_missing_config' | 'inactive_invalid_config';
export type Grade = 'excellent' | 'good' | 'fair' | 'poor';

export interface Dimension {
  name: 'tool_gate' | 'repos_present' | 'maintenance' | 'agent_surfaces';
  score: number;
  max: 25;
  detail: string;
}

export interface ReadinessSummary {
  ok: true;
  workspace_name: string | null;
  gate: GateState;
  /** What `hub config validate` says: a manifest can open the gate (schema and catalog rules) and still fail it. */
  manifest_valid: boolean;
  /** How many problems `hub config validate` reports. */
  manifest_problems: number;
  /** 0-100: four dimensions of 25 points each. */
  score: number;
  grade: Grade;
  dimensions: Dimension[];
  blockers: string[];
  suggested_commands: string[];
  counts: { projects: number; repos: number; present: number; components: number };
}

/** Points a critical and a warning maintenance finding take off the 25 of that dimension. */
export const CRITICAL_PENALTY = 5;
export const WARNING_PENALTY = 1;
/** Tool-gate points of a manifest that opens the gate but that `hub config validate` rejects. */
export const GATE_WITH_PROBLEMS = 15;

export function gradeOf(score: number): Grade {
  return score >= 90 ? 'excellent' : score >= 75 ? 'good' : score >= 50 ? 'fair' : 'poor';
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The summary when no valid manifest could be loaded: only the gate speaks, and it says why. */
export function inactiveSummary(gate: Exclude<GateState, 'active'>, reason: string): ReadinessSummary {
  const dims: Dimension[] = [
    { name: 'tool_gate', score: 0, max: 25, detail: reason },
    { name: 'repos_present', score: 0, max: 25, detail: 'no manifest' },
    { name: 'maintenance', score: 0, max: 25, detail: 'no manifest' },
    { name: 'agent_surfaces', score: 0, max: 25, detail: 'no manifest' },
  ];
  return {
    ok: true,
    workspace_name: null,
    gate,
    manifest_valid: false,
    manifest_problems: 0,
    score: 0,
    grade: 'poor',
    dimensions: dims,
    blockers: [reason],
    suggested_commands: gate === 'inactive_missing_config' ? ['hub init'] : ['hub config validate'],
    counts: { projects: 0, repos: 0, present: 0, components: 0 },
  };
}

/**
 * Readiness of a workspace with an active gate: repositories present on disk, maintenance findings (from
 * `health`, critical and warning deduct), and agent surfaces (agent_instructions at any scope, AGENTS.md,
 * llms.txt: a third of the dimension each, averaged over the present repositories).
 */
export function readinessSummary(
  catalog: Catalog,
  health: HealthReport,
  checkouts: Checkouts = checkoutsOf(catalog),
): ReadinessSummary {
  const m = catalog.file.manifest;
  const repos = catalog.repos;
  // A repository outside the workspace counts as not present (health reports why).
  const places = repos.map((r) => checkouts.of(r));
  const present = repos.flatMap((r, i) => {
    const c = places[i]!;
    return c.state === 'present' ? [{ ...r, root: c.dir }] : [];
  });
  // Not on disk; an outside one is a critical health finding instead (and never a clone suggestion).
  const missing = repos.filter((_, i) => places[i]!.state === 'missing');
  const wsInstr = Boolean((m.workspace?.agent_instructions ?? m.agent_instructions)?.trim());
  const projInstr = new Set(
    (m.workspace?.projects ?? []).filter((p) => p.agent_instructions?.trim()).map((p) => p.name),
  );
  let instr = 0;
  let agentsMd = 0;
  let llms = 0;
  for (const r of present) {
    if (wsInstr || projInstr.has(r.project) || r.raw?.agent_instructions?.trim()) instr++;
    if (existsSync(join(r.root, 'AGENTS.md'))) agentsMd++;
    if (existsSync(join(r.root, 'llms.txt'))) llms++;
  }
  const n = present.length;
  const share = (k: number) => (n === 0 ? 0 : k / n);
  const surfaces = ((share(instr) + share(agentsMd) + share(llms)) / 3) * 25;
  const presence = repos.length === 0 ? 0 : (present.length / repos.length) * 25;
  const maintenance = Math.max(
    0,
    25 - CRITICAL_PENALTY * health.counts.critical - WARNING_PENALTY * health.counts.warning,
  );
  const problems = health.manifest_problems;
  const gateScore = problems === 0 ? 25 : GATE_WITH_PROBLEMS;
  const dims: Dimension[] = [
    {
      name: 'tool_gate',
      score: gateScore,
      max: 25,
      detail:
        problems === 0
          ? 'valid .hub.yml: tools are active'
          : `tools are active, but \`hub config validate\` finds ${problems} problem(s) in .hub.yml`,
    },
    {
      name: 'repos_present',
      score: round1(presence),
      max: 25,
      detail: `${present.length} of ${repos.length} repositories on disk`,
    },
    {
      name: 'maintenance',
      score: round1(maintenance),
      max: 25,
      detail: `${health.counts.critical} critical, ${health.counts.warning} warning finding(s)`,
    },
    {
      name: 'agent_surfaces',
      score: round1(surfaces),
      max: 25,
      detail: `of ${n} present: ${instr} with agent_instructions, ${agentsMd} with AGENTS.md, ${llms} with llms.txt`,
    },
  ];
  const score = Math.round(gateScore + presence + maintenance + surfaces);
  const blockers: string[] = [];
  const commands: string[] = [];
  if (repos.length === 0) blockers.push('the manifest declares no repositories');
  for (const f of health.findings.filter((x) => x.code.startsWith('manifest_')).slice(0, 5))
    blockers.push(`.hub.yml: ${f.message}`);
  for (const f of health.findings.filter((x) => x.severity === 'critical').slice(0, 10))
    blockers.push(`${f.repository ? `${f.repository}: ` : ''}${f.message}`);
  if (missing.length > 0) {
    blockers.push(
      `${missing.length} repositor${missing.length === 1 ? 'y is' : 'ies are'} not on disk: ${missing
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}${missing.length > 5 ? ', ...' : ''}`,
    );
    for (const r of missing.slice(0, 5)) if (r.url) commands.push(`git clone ${r.url} ${r.root}`);
  }
  if (health.counts.critical + health.counts.warning > 0) commands.push('hub workspace health --json');
  if (problems > 0) commands.unshift('hub config validate');
  if (n > 0 && agentsMd < n)
    commands.push('hub context compile --project <P> --repo <R> --json  # then write AGENTS.md');
  if (n > 0 && instr < n)
    commands.push('hub config show  # add agent_instructions to the workspace, a project or a repo');
  return {
    ok: true,
    workspace_name: m.workspace?.name ?? m.name ?? null,
    gate: 'active',
    manifest_valid: problems === 0,
    manifest_problems: problems,
    score,
    grade: gradeOf(score),
    dimensions: dims,
    blockers,
    suggested_commands: commands,
    counts: {
      projects: new Set(repos.map((r) => r.project)).size,
      repos: repos.length,
      present: present.length,
      components: repos.reduce(
        (k, r) =>
          k + (r.raw ? (r.raw.components?.length ?? 0) : (catalog.componentsByRepo.get(r.id)?.length ?? 0)),
        0,
      ),
    },
  };
}
