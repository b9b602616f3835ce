import type * as z from 'zod';
import { activeObjectiveId, type Objective, SESSION_DOCUMENT, type SessionDoc } from '../../coord/index.js';
import { RefusedError, ValidationError } from '../../infra/index.js';
import { type AnyOperation, invoke } from '../../ops/index.js';
import { type GateStatus, gateStatus } from './gate.js';
import { findOp, pageParams, type ResourceEnv, runOp, runWholeList, TextBody } from './resource-env.js';
import { sessionStartPrompt } from './session-prompt.js';

export interface ResourceDef {
  /** The URI without parameters, e.g. `hub://workspace/map`. */
  uri: string;
  name: string;
  description: string;
  mimeType: string;
  /** RFC 6570 template when the resource takes parameters. */
  template?: string;
  params: string[];
  /** Needs the gate ACTIVE (every resource but the gate status). */
  active: boolean;
  /** Registry operation it reads (documentation; `|` separates the op used when present from the fallback). */
  source: string;
  read(env: ResourceEnv): Promise<unknown>;
}

/** Default and cap of `hub://workspace/map?limit=` (spec: context pack map page, default 80). */
export const MAP_LIMIT = 80;
const MAP_LIMIT_MAX = 5000;
/** Events served by `hub://events/recent` without `since`. */
export const RECENT_EVENTS = 50;

/**
 * Input for an operation of another issue whose schema this file cannot know: keeps the fields its schema has,
 * as given or as a string when only that parses, so `{tier: 0}` reaches a numeric or a string tier alike.
 */
function fitInput(op: AnyOperation, input: Record<string, unknown>): Record<string, unknown> {
  const shape = op.input.shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const field = shape[k];
    if (!field || v === undefined) continue;
    if (field.safeParse(v).success) out[k] = v;
    else if (field.safeParse(String(v)).success) out[k] = String(v);
  }
  return out;
}

function intParam(env: ResourceEnv, name: string, def: number, max: number): number {
  const raw = env.params.get(name);
  if (raw === null || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ValidationError(`${name}: must be an integer from 1 to ${max} (got ${JSON.stringify(raw)})`, {
      field: name,
      value: raw,
      rule: 'integer_range',
    });
  return n;
}

async function workspaceMap(env: ResourceEnv): Promise<unknown> {
  const limit = intParam(env, 'limit', MAP_LIMIT, MAP_LIMIT_MAX);
  const pack = findOp(env.ops, 'context.pack');
  if (pack) return invoke(pack, env.ctx, fitInput(pack, { tier: 0, max_map_repos: limit, limit }));
  const ws = env.ctx.workspace();
  const page = await runOp<{ total: number; repos: Array<Record<string, unknown>> }>(
    env,
    'workspace.repo.list',
    {
      limit,
    },
  );
  const projects = ws.file.manifest.workspace?.projects ?? [];
  return {
    workspace_name: ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? null,
    workspace_root: ws.file.root,
    manifest_path: ws.file.path,
    counts: { projects: projects.length, repos: page.total, components: ws.catalog.components.length },
    projects: projects.map((p) => ({
      name: p.name,
      repo_count: p.repos.length,
      description: p.description ?? null,
      tags: p.tags ?? {},
    })),
    repos: page.repos.map((r) => ({
      project: r.project,
      repo: r.repo,
      path: r.path,
      exists: r.exists,
      tags: r.tags,
      components: r.components,
    })),
    limit,
    truncated: page.total > limit,
    ...(page.total > limit
      ? { more: `hub://workspace/map?limit=${Math.min(page.total, MAP_LIMIT_MAX)}` }
      : {}),
  };
}

async function sessionMeta(env: ResourceEnv): Promise<unknown> {
  const { store, info } = env.ctx.store();
  const { value, etag } = await store.read<SessionDoc>(SESSION_DOCUMENT);
  // Every objective: the active one may be anywhere in the list.
  const objectives = await runWholeList<Objective>(env, 'context.objective.list', 'objectives');
  const { heads, ...session } = value ?? {};
  return {
    session: value ? session : null,
    repos_tracked: Object.keys(heads ?? {}).length,
    active_objective_id: activeObjectiveId(value, objectives),
    etag: etag ?? null,
    backend: info.backend,
  };
}

async function recentEvents(env: ResourceEnv): Promise<unknown> {
  const since = env.params.get('since') ?? undefined;
  const feed = await runOp<{ events: unknown[] } & Record<string, unknown>>(env, 'context.events', { since });
  if (since !== undefined || feed.events.length <= RECENT_EVENTS) return feed;
  return { ...feed, events: feed.events.slice(-RECENT_EVENTS), omitted: feed.events.length - RECENT_EVENTS };
}

async function gateResource(env: ResourceEnv): Promise<unknown> {
  let loadError: unknown;
  try {
    env.ctx.workspace();
  } catch (err) {
    loadError = err;
  }
  const gate: GateStatus = gateStatus(env.loc, loadError);
  let state: Record<string, unknown>;
  try {
    const info = await runOp<Record<string, unknown>>(env, 'state.info');
    const { token_configured, env_overrides, conflict_retries: _retries, ...backend } = info;
    state = { state_backend: backend, token_configured, env_overrides };
  } catch (err) {
    state = { state_backend: { error: (err as Error).message }, token_configured: false, env_overrides: [] };
  }
  return { ...gate, ...state, server: env.server };
}

async function workspaceHealth(env: ResourceEnv): Promise<unknown> {
  const op = findOp(env.ops, 'workspace.health');
  if (op) return invoke(op, env.ctx, {});
  const v = await runOp<{ valid: boolean; problems: unknown[]; counts: unknown }>(env, 'config.validate');
  const repos = await runWholeList<{ id: string; exists: boolean }>(env, 'workspace.repo.list', 'repos');
  const list = { total: repos.length };
  const missing = repos.filter((r) => !r.exists).map((r) => r.id);
  return {
    ok: v.valid && missing.length === 0,
    gate: 'active',
    manifest: { valid: v.valid, problems: v.problems.length, first_problems: v.problems.slice(0, 10) },
    counts: v.counts,
    repos: { total: list.total, present: list.total - missing.length, missing: missing.slice(0, 50) },
  };
}

async function workspaceContext(env: ResourceEnv): Promise<unknown> {
  const op = findOp(env.ops, 'context.pack');
  // Tier 1 (map and cards): tier 2 would move the session boundary, and reading a resource must change nothing.
  if (op) return invoke(op, env.ctx, fitInput(op, { tier: 1 }));
  const ws = env.ctx.workspace();
  const resume = await runOp<{ objective: Objective | null }>(env, 'context.resume');
  const handoffs = await runOp<{ handoffs: Array<{ id: string; title: string }> }>(
    env,
    'context.handoff.list',
    {
      status: 'open',
    },
  );
  const approvals = await runOp<{ requests: Array<{ id: string; action: string }> }>(
    env,
    'context.approval.list',
  );
  const { value: session } = await env.ctx.store().store.read<SessionDoc>(SESSION_DOCUMENT);
  const o = resume.objective;
  return {
    workspace: {
      name: ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? null,
      root: ws.file.root,
      manifest: ws.file.path,
      description: ws.file.manifest.workspace?.description ?? null,
    },
    counts: {
      projects: new Set(ws.catalog.repos.map((r) => r.project)).size,
      repos: ws.catalog.repos.length,
      components: ws.catalog.components.length,
    },
    objective: o ? { id: o.id, title: o.title, status: o.status, repos: o.repos } : null,
    open_handoffs: handoffs.handoffs.map((h) => ({ id: h.id, title: h.title })),
    pending_approvals: approvals.requests.map((a) => ({ id: a.id, action: a.action })),
    session: session
      ? {
          count: session.count ?? null,
          started_at: session.started_at ?? null,
          boundary: session.boundary ?? null,
        }
      : null,
    next: ['hub://workspace/map', 'hub_session_begin', 'hub_component_resolve'],
  };
}

async function workspaceConfig(env: ResourceEnv): Promise<unknown> {
  const view = env.params.get('view') ?? 'summary';
  if (!['summary', 'full', 'normalized'].includes(view))
    throw new ValidationError(`view: must be summary, full or normalized (got ${JSON.stringify(view)})`, {
      field: 'view',
      value: view,
      rule: 'enum',
    });
  if (view === 'summary') {
    const ws = env.ctx.workspace();
    const projects = ws.file.manifest.workspace?.projects ?? [];
    return {
      file: ws.file.path,
      view,
      repo_count: ws.catalog.repos.length,
      component_count: ws.catalog.components.length,
      projects: projects.map((p) => ({ name: p.name, repos: p.repos.length })),
      relationships: ws.file.manifest.graph?.relationships?.length ?? 0,
      full: 'hub://workspace/config?view=full',
    };
  }
  const confirm = env.params.get('confirm');
  try {
    const r = await runOp<{ text: string }>(env, 'config.show', {
      normalized: view === 'normalized',
      confirm_full: confirm === '1' || confirm === 'true',
    });
    return new TextBody(r.text, 'application/yaml');
  } catch (err) {
    if (err instanceof RefusedError && err.details?.rule === 'confirm_full') {
      throw new RefusedError(
        `${err.message.split(';')[0]}; read hub://workspace/config?view=${view}&confirm=1 to get all of it, or hub://workspace/map for a paged view`,
        err.details,
      );
    }
    throw err;
  }
}

const json = 'application/json';

/** Every `hub://` resource, in listing order. */
export const RESOURCES: ResourceDef[] = [
  {
    uri: 'hub://catalog',
    template: 'hub://catalog{?limit,offset}',
    name: 'catalog',
    description:
      'Catalogued components (id, project, repo, path, kind, dependencies), a page at a time: limit (default 50), offset (next_offset of the last page).',
    mimeType: json,
    params: ['limit', 'offset'],
    active: true,
    source: 'component.list',
    read: (env) => runOp(env, 'component.list', pageParams(env)),
  },
  {
    uri: 'hub://workspace/map',
    template: 'hub://workspace/map{?limit}',
    name: 'workspace-map',
    description: `Tier-0 map: projects and the first \`limit\` repos (default ${MAP_LIMIT}) with presence and tags.`,
    mimeType: json,
    params: ['limit'],
    active: true,
    source: 'context.pack (tier 0) | workspace.repo.list',
    read: workspaceMap,
  },
  {
    uri: 'hub://session/start-prompt',
    name: 'session-start-prompt',
    description: 'How to start work here: the steps, the active objective, open handoffs, pending approvals.',
    mimeType: 'text/markdown',
    params: [],
    active: true,
    source: 'prompt.show (session-start) | context.resume, context.handoff.list, context.approval.list',
    read: sessionStartPrompt,
  },
  {
    uri: 'hub://session/meta',
    name: 'session-meta',
    description: 'The session document: boundary, count, project, notes and the active objective id.',
    mimeType: json,
    params: [],
    active: true,
    source: 'state document `session`, context.objective.list',
    read: sessionMeta,
  },
  {
    uri: 'hub://objectives',
    template: 'hub://objectives{?limit,offset}',
    name: 'objectives',
    description: 'Objectives, a page at a time: limit (default 50), offset (next_offset of the last page).',
    mimeType: json,
    params: ['limit', 'offset'],
    active: true,
    source: 'context.objective.list',
    read: (env) => runOp(env, 'context.objective.list', pageParams(env)),
  },
  {
    uri: 'hub://approvals/pending',
    name: 'approvals-pending',
    template: 'hub://approvals/pending{?limit,offset}',
    description: 'Approval requests waiting for a decision, a page at a time (limit default 50, offset).',
    mimeType: json,
    params: ['limit', 'offset'],
    active: true,
    source: 'context.approval.list (status pending)',
    read: (env) => runOp(env, 'context.approval.list', { status: 'pending', ...pageParams(env) }),
  },
  {
    uri: 'hub://handoffs/open',
    name: 'handoffs-open',
    template: 'hub://handoffs/open{?limit,offset}',
    description: 'Open (unclaimed) handoffs, a page at a time (limit default 50, offset).',
    mimeType: json,
    params: ['limit', 'offset'],
    active: true,
    source: 'context.handoff.list (status open)',
    read: (env) => runOp(env, 'context.handoff.list', { status: 'open', ...pageParams(env) }),
  },
  {
    uri: 'hub://events/recent',
    template: 'hub://events/recent{?since}',
    name: 'events-recent',
    description: `Coordination events after \`since\` (ISO time), or the last ${RECENT_EVENTS}.`,
    mimeType: json,
    params: ['since'],
    active: true,
    source: 'context.events',
    read: recentEvents,
  },
  {
    uri: 'hub://gate/status',
    name: 'gate-status',
    description:
      'Gate state (active, inactive_missing_config, inactive_invalid_config), its fix, the state backend.',
    mimeType: json,
    params: [],
    active: false,
    source: 'state.info',
    read: gateResource,
  },
  {
    uri: 'hub://workspace/health',
    name: 'workspace-health',
    description: 'Manifest problems and repositories missing on disk.',
    mimeType: json,
    params: [],
    active: true,
    source: 'workspace.health | config.validate, workspace.repo.list',
    read: workspaceHealth,
  },
  {
    uri: 'hub://workspace/context',
    name: 'workspace-context',
    description: 'Where work stands: workspace, active objective, open handoffs, pending approvals, session.',
    mimeType: json,
    params: [],
    active: true,
    source: 'context.pack | context.resume, context.handoff.list, context.approval.list',
    read: workspaceContext,
  },
  {
    uri: 'hub://workspace/config',
    template: 'hub://workspace/config{?view,confirm}',
    name: 'workspace-config',
    description:
      'The manifest: summary (default, JSON), view=full (YAML as on disk) or view=normalized; over 80 repos needs confirm=1.',
    mimeType: json,
    params: ['view', 'confirm'],
    active: true,
    source: 'config.show',
    read: workspaceConfig,
  },
];

/** Splits `hub://a/b?x=1` into its resource and parameters; undefined for an unknown URI. */
export function matchResource(uri: string): { def: ResourceDef; params: URLSearchParams } | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'hub:') return undefined;
  const base = `hub://${url.host}${url.pathname.replace(/\/+$/, '')}`;
  const def = RESOURCES.find((r) => r.uri === base);
  if (!def) return undefined;
  for (const key of url.searchParams.keys())
    if (!def.params.includes(key))
      throw new ValidationError(
        `${uri}: unknown parameter '${key}'${def.params.length ? `; known: ${def.params.join(', ')}` : ''}`,
        { field: key, rule: 'known_parameter' },
      );
  return { def, params: url.searchParams };
}
