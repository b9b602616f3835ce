// Hooks of the routes the Agents page calls: the template catalog, a vendor preview, a dispatch plan, team overlay
// init (a POST), objectives and the session digest (docs/agents.md, docs/coordination.md, docs/http.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useRoute } from './query';

export interface TemplateInput {
  name: string;
  question?: string;
  description?: string;
  default?: string;
  default_from?: string;
  required?: boolean;
}

export interface TemplateSummary {
  id: string;
  name: string;
  description: string;
  archetype: string;
  scope: string;
  status: string;
  version: string;
  source: 'bundled' | 'overlay' | 'merged';
  overlay_paths: string[];
  ui: { category: string; sort_order: number; icon?: string };
  recommended_skills: string[];
  external_skills: Array<{ name: string; note?: string }>;
  mcp_tools: string[];
  delegates_to: string[];
  delegated_by: string[];
  inputs: TemplateInput[];
  vendor_hints: string[];
}

export interface Catalog {
  schema_version: number;
  templates: TemplateSummary[];
  taxonomy: {
    categories: Array<{ name: string; sort_order: number; templates: string[] }>;
    vendors: string[];
  };
  problems: Array<{ file?: string; line?: number; message: string; template?: string }>;
}

export interface Preview {
  template_id: string;
  vendor: string;
  filename: string;
  source: string;
  front_matter: Record<string, unknown>;
  content: string;
  fragment: string | null;
  answers: Record<string, unknown>;
  defaulted: string[];
}

export interface LaunchHint {
  vendor: string;
  kind: 'cli' | 'ide';
  command?: string;
  text: string;
  source: string;
  cwd?: string;
}

export interface DispatchPlan {
  template: { id: string; label: string; scope: string; category: string; source: string };
  vendor: string;
  project: string | null;
  repo: string | null;
  component: string | null;
  task: string;
  warnings: string[];
  install: {
    kind: string;
    exists: boolean;
    path: string;
    installed: boolean;
    installed_in: string | null;
    needed: boolean;
    command: string;
    /** The folder to run `command` in (the checkout, for project scope); null for user scope. */
    cwd: string | null;
  };
  launch: Record<string, LaunchHint>;
  handoff: {
    tier: number;
    context_pack_command: string;
    context_compile_command: string;
    prompt: string;
    prompt_command: string;
  };
  out_of_scope: {
    repositories: { count: number; ids: string[] };
    claims: Array<{ claim_id: string; agent_id: string; patterns: string[]; expires_at: string | null }>;
    limits: string[];
  };
  required_profile_skills?: string[];
  missing_profile_skills?: string[];
  profile_apply_command?: string;
}

export interface OverlayInitResult {
  template_id?: string;
  scope: string;
  mode: string;
  path: string;
  relative: string;
  written: string[];
}

/** The eight install targets, in the catalog's order (docs/agents.md). */
export const VENDOR_LABELS: Record<string, string> = {
  claude_code: 'Claude Code',
  cursor: 'Cursor',
  github_copilot: 'GitHub Copilot',
  opencode: 'OpenCode',
  hermes: 'Hermes',
  openclaw: 'OpenClaw',
  windsurf: 'Windsurf',
  codex: 'Codex',
};

const enc = encodeURIComponent;

/** GET /v3/agents/catalog: templates, taxonomy (categories, vendors), overlay problems. */
export function useCatalog() {
  return useRoute<Catalog>('/v3/agents/catalog', undefined, { staleTime: 5 * 60_000 });
}

/** GET /v3/agents/templates/{id}/preview?vendor=: the rendered artifact, written nowhere. */
export function usePreview(id: string | undefined, vendor: string) {
  return useRoute<Preview>(
    `/v3/agents/templates/${enc(id ?? '')}/preview`,
    { vendor },
    { enabled: Boolean(id) },
  );
}

export interface PlanQuery {
  vendor: string;
  project?: string;
  repo?: string;
  task?: string;
}

/** GET /v3/agents/templates/{id}/dispatch-plan: how to start the template on a task (a pure read). */
export function useDispatchPlan(id: string | undefined, query: PlanQuery | undefined) {
  return useRoute<DispatchPlan>(
    `/v3/agents/templates/${enc(id ?? '')}/dispatch-plan`,
    query ? { ...query } : undefined,
    { enabled: Boolean(id && query) },
  );
}

/** POST /v3/agents/templates/{id}/overlay/init: the team overlay `.hub-agents/<id>/` (a write). */
export function useOverlayInit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; mode: 'full' | 'minimal'; force: boolean }) =>
      api<OverlayInitResult>(`/v3/agents/templates/${enc(v.id)}/overlay/init`, {
        method: 'POST',
        body: { mode: v.mode, force: v.force },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/v3/agents/catalog'] }),
  });
}

export const OBJECTIVE_STATUSES = ['in_progress', 'pending', 'blocked', 'done', 'cancelled'] as const;
export type ObjectiveStatus = (typeof OBJECTIVE_STATUSES)[number];

export interface Objective {
  id: string;
  title: string;
  status: ObjectiveStatus;
  repos: string[];
  acceptance?: string;
  human_notes?: string;
  agent_notes?: string;
  mr_url?: string;
  approval_id?: string;
  created_at: string;
  updated_at: string;
}

/** GET /v3/ops/objectives: the stored objectives document. */
export function useObjectives(refetchInterval: number | false) {
  return useRoute<{ objectives: Objective[] }>('/v3/ops/objectives', undefined, {
    refetchInterval,
    staleTime: 0,
  });
}

export interface RepoChange {
  repository: string;
  path: string;
  is_git_repo: boolean;
  branch: string | null;
  head: string | null;
  dirty: boolean;
  changes: number;
  commit_count: number;
  recent_subjects: string[];
  error?: string;
}

export interface SessionDigest {
  since: string | null;
  first_session: boolean;
  manifest_changed: boolean;
  active_objective_id: string | null;
  repo_changes: RepoChange[];
  truncated: boolean;
}

/** GET /v3/ops/session: changes since the last session boundary and the active objective (a pure read). */
export function useSessionDigest(project: string | undefined, refetchInterval: number | false) {
  return useRoute<SessionDigest>('/v3/ops/session', project ? { project } : undefined, {
    refetchInterval,
    staleTime: 0,
  });
}
