import { describe, expect, it } from 'vitest';
import { loadCommandTable, loadOperations } from '../src/ops/index.js';
import { mainWithCommander } from '../src/surfaces/cli/commander-main.js';
import { runHub } from './run-hub.js';

const OPERATIONS = await loadOperations();

/** Bindings the specification names for operations that exist so far; later issues extend this list. */
const SPEC_BINDINGS: Record<string, { cli?: string; mcp?: string; http?: string }> = {
  'component.list': { cli: 'component list', mcp: 'hub_component_list', http: 'GET /v3/ops/components' },
  'component.show': { cli: 'component show', mcp: 'hub_component_show' },
  'component.resolve': {
    cli: 'component resolve',
    mcp: 'hub_component_resolve',
    http: 'GET /v3/ops/components/resolve',
  },
  'component.graph': {
    cli: 'component graph',
    mcp: 'hub_component_graph',
    http: 'GET /v3/ops/components/graph',
  },
  'component.detect': {
    cli: 'component detect',
    mcp: 'hub_component_detect',
    http: 'GET /v3/ops/components/detect',
  },
  'component.init': {
    cli: 'component init',
    mcp: 'hub_component_init',
    http: 'POST /v3/ops/components/init',
  },
  'config.validate': { cli: 'config validate' },
  'config.show': { cli: 'config show' },
  'config.example': { cli: 'config example' },
  'appconfig.info': { cli: 'appconfig info' },
  'appconfig.validate': { cli: 'appconfig validate' },
  'appconfig.patch': { cli: 'appconfig patch' },
  init: { cli: 'init' },
  search: { cli: 'search', mcp: 'hub_repo_search', http: 'GET /v1/repos/search' },
  'workspace.repo.list': { cli: 'workspace repo list', mcp: 'hub_workspace_repos_list' },
  'session.begin': { cli: 'session begin', mcp: 'hub_session_begin', http: 'POST /v3/ops/session/begin' },
  'session.digest': { cli: 'session digest', mcp: 'hub_session_digest', http: 'GET /v3/ops/session' },
  'session.update': { cli: 'session update', mcp: 'hub_session_update', http: 'POST /v3/ops/session' },
  'state.info': { cli: 'state info' },
  'import.repo-manifest': { cli: 'import repo-manifest' },
  'repo.resolve': { cli: 'repo resolve', http: 'GET /v1/repos/resolve' },
  'repo.open': { cli: 'repo open', http: 'POST /v3/ops/open' },
  'context.pack': { cli: 'context pack', mcp: 'hub_context_pack' },
  'context.repo-card': { cli: 'context repo-card', mcp: 'hub_repo_card' },
  'context.compile': { cli: 'context compile', mcp: 'hub_context_compile' },
  'context.switch': { cli: 'context switch', mcp: 'hub_context_switch' },
  'context.repomix': { cli: 'context repomix' },
  'workspace.summary': { cli: 'workspace summary' },
  'workspace.health': { cli: 'workspace health', mcp: 'hub_workspace_health_check' },
  'workspace.list': { cli: 'workspace list' },
  'workspace.grep': { cli: 'workspace grep', mcp: 'hub_workspace_search', http: 'GET /v2/workspace/grep' },
  // Issue 16: the events feed as a stream (no MCP tool: a tool call answers once).
  'context.events.follow': { cli: 'context follow', http: 'GET /v3/ops/events/stream' },
  'workspace.grep.info': {
    cli: 'workspace grep info',
    mcp: 'hub_workspace_grep_info',
    http: 'GET /v2/workspace/grep/info',
  },
  version: { cli: 'version' },
  'context.project-switch': { mcp: 'hub_project_context_switch' },
  'version.check': { cli: 'version check', mcp: 'hub_version_check' },
  'version.upgrade': { cli: 'version upgrade', mcp: 'hub_version_upgrade' },
  'context.objective.set': {
    cli: 'context objective set',
    mcp: 'hub_objective_upsert',
    http: 'POST /v3/ops/objectives',
  },
  'context.objective.edit': {
    cli: 'context objective edit',
    mcp: 'hub_objective_edit',
    http: 'PATCH /v3/ops/objectives/{id}',
  },
  'context.objective.list': {
    cli: 'context objective list',
    mcp: 'hub_objective_list',
    http: 'GET /v3/ops/objectives',
  },
  'context.pause': { cli: 'context pause' },
  'context.resume': { cli: 'context resume', mcp: 'hub_context_resume' },
  'context.handoff.create': {
    cli: 'context handoff create',
    mcp: 'hub_handoff_create',
    http: 'POST /v3/ops/handoffs',
  },
  'context.handoff.list': {
    cli: 'context handoff list',
    mcp: 'hub_handoff_list',
    http: 'GET /v3/ops/handoffs',
  },
  'context.handoff.claim': { cli: 'context handoff claim', mcp: 'hub_handoff_claim' },
  'context.handoff.heartbeat': { cli: 'context handoff heartbeat' },
  'context.handoff.complete': { cli: 'context handoff complete', mcp: 'hub_handoff_complete' },
  'context.handoff.cancel': { cli: 'context handoff cancel' },
  'context.approval.request': { cli: 'context approval request', mcp: 'hub_approval_request' },
  'context.approval.list': {
    cli: 'context approval list',
    mcp: 'hub_approval_list',
    http: 'GET /v3/ops/approvals',
  },
  'context.approval.resolve': {
    cli: 'context approval resolve',
    mcp: 'hub_approval_resolve',
    http: 'POST /v3/ops/approvals/{id}/resolve',
  },
  'context.events': { cli: 'context events', mcp: 'hub_events', http: 'GET /v3/ops/events' },
  'claim.declare': { cli: 'claim declare', mcp: 'hub_claim_declare', http: 'POST /v3/ops/claims' },
  'claim.check': { cli: 'claim check', mcp: 'hub_claim_check', http: 'GET /v3/ops/claims/check' },
  'semantic.declare': { cli: 'semantic declare', mcp: 'hub_semantic_declare' },
  'semantic.query': { cli: 'semantic query', mcp: 'hub_semantic_query' },
  'semantic.owners': { cli: 'semantic owners', mcp: 'hub_semantic_owners' },
  'semantic.conflicts': { cli: 'semantic conflicts', mcp: 'hub_semantic_conflicts' },
  'semantic.ingest': { cli: 'semantic ingest', mcp: 'hub_semantic_ingest' },
  'semantic.seed': { cli: 'semantic seed' },
  'branch.allocate': { cli: 'branch allocate' },
  'lease.acquire': { cli: 'lease acquire' },
  'worktree.create': { cli: 'worktree create' },
  'worktree.adopt': { cli: 'worktree adopt' },
  'worktree.gc': { cli: 'worktree gc' },
  'worktree.destroy': { cli: 'worktree destroy' },
  'aos.recover': { cli: 'aos recover', mcp: 'hub_aos_recover' },
  'aos.heartbeat': { cli: 'aos heartbeat', mcp: 'hub_aos_heartbeat' },
  'run.open': { cli: 'run open', mcp: 'hub_run_open' },
  'run.close': { cli: 'run close', mcp: 'hub_run_close' },
  'run.list': { cli: 'run list', mcp: 'hub_run_list' },
  'run.show': { cli: 'run show', mcp: 'hub_run_show' },
  'run.replay': { cli: 'run replay', mcp: 'hub_run_replay' },
  'run.export': { cli: 'run export', mcp: 'hub_run_export' },
  'route.query': { cli: 'route query', mcp: 'hub_route_query' },
  'lane.eval': { cli: 'lane eval', mcp: 'hub_lane_eval' },
  'policy.eval': { cli: 'policy eval', mcp: 'hub_policy_eval' },
  'merge.enqueue': { cli: 'merge enqueue', mcp: 'hub_merge_enqueue', http: 'POST /v3/ops/merges' },
  'merge.status': { cli: 'merge status', mcp: 'hub_merge_status', http: 'GET /v3/ops/merges' },
  'merge.integrate': {
    cli: 'merge integrate',
    mcp: 'hub_merge_integrate',
    http: 'POST /v3/ops/merges/integrate',
  },
  'merge.retry': { cli: 'merge retry', mcp: 'hub_merge_retry', http: 'POST /v3/ops/merges/retry' },
  // Issue 27: a request that should not land (or cannot) leaves the queue, kept as cancelled.
  'merge.cancel': { cli: 'merge cancel', mcp: 'hub_merge_cancel', http: 'POST /v3/ops/merges/cancel' },
  'merge.promote': { cli: 'merge promote', mcp: 'hub_merge_promote', http: 'POST /v3/ops/merges/promote' },
  'merge.rollup': { cli: 'merge rollup', mcp: 'hub_merge_rollup', http: 'POST /v3/ops/merges/rollup' },
  'task.create': { cli: 'task create', mcp: 'hub_task_create', http: 'POST /v3/ops/tasks' },
  'task.expand': { cli: 'task expand', mcp: 'hub_task_expand', http: 'POST /v3/ops/tasks/expand' },
  'task.ready': { cli: 'task ready', mcp: 'hub_task_ready', http: 'GET /v3/ops/tasks/ready' },
  'task.complete': { cli: 'task complete', mcp: 'hub_task_complete', http: 'POST /v3/ops/tasks/complete' },
  'task.bind-acl': { cli: 'task bind-acl', mcp: 'hub_task_bind_acl', http: 'POST /v3/ops/tasks/bind-acl' },
  'schedule.next': { cli: 'schedule next', mcp: 'hub_schedule_next', http: 'POST /v3/ops/schedule/next' },
  'schedule.status': {
    cli: 'schedule status',
    mcp: 'hub_schedule_status',
    http: 'GET /v3/ops/schedule/status',
  },
  'schedule.policy.show': { cli: 'schedule policy show', mcp: 'hub_schedule_policy_show' },
  'skills.install': { cli: 'skills install' },
  'mcp.install': { cli: 'mcp install' },
  'agent.create': { cli: 'agent create' },
  'agent.apply': { cli: 'agent apply' },
  'agent.profile.show': { cli: 'agent profile show' },
  'agent.dispatch-plan': {
    cli: 'agent dispatch-plan',
    mcp: 'hub_agent_dispatch_plan',
    http: 'GET /v3/agents/templates/{id}/dispatch-plan',
  },
  'prompt.list': { cli: 'prompt list' },
  'prompt.show': { cli: 'prompt show' },
  'agent.list': { cli: 'agent list', mcp: 'hub_agent_catalog', http: 'GET /v3/agents/catalog' },
  'agent.show': { cli: 'agent show' },
  'agent.schema': { cli: 'agent schema' },
  'agent.validate': { cli: 'agent validate' },
  'agent.preview': { cli: 'agent preview', http: 'GET /v3/agents/templates/{id}/preview' },
  'agent.export': { cli: 'agent export' },
  'agent.overlay.init': { cli: 'agent overlay init', http: 'POST /v3/agents/templates/{id}/overlay/init' },
  'agent.overlay.path': { cli: 'agent overlay path' },
  'project.sync': { cli: 'project sync', mcp: 'hub_workspace_sync' },
  'project.source.sync': { cli: 'project source sync', http: 'POST /v3/ops/source-sync' },
  'workspace.discover': { mcp: 'hub_workspace_discover' },
  'project.repo.prune': { cli: 'project repo prune' },
  'org.index': { cli: 'org index', mcp: 'hub_org_index' },
  'org.search': { cli: 'org search', mcp: 'hub_org_search', http: 'GET /v3/ops/org/search' },
  'repo.materialize': { cli: 'repo materialize', mcp: 'hub_org_materialize' },
  // Issue 30: the repository atlas (the earlier product had no MCP tool; hub serves queries).
  'atlas.init': { cli: 'atlas init' },
  'atlas.generate': { cli: 'atlas generate' },
  'atlas.validate': { cli: 'atlas validate' },
  'atlas.status': { cli: 'atlas status' },
  'atlas.refresh': { cli: 'atlas refresh' },
  'atlas.query': { cli: 'atlas query', mcp: 'hub_atlas_query', http: 'GET /v3/ops/atlas/query' },
  'graph.show': { cli: 'graph', http: 'GET /v3/ops/graph' },
  'graph.neighbors': { mcp: 'hub_graph_neighbors' },
  'config.graph.suggest': { cli: 'config graph suggest' },
  'config.graph.export': { cli: 'config graph export' },
  'project.repo.ci.show': { cli: 'project repo ci show', mcp: 'hub_repo_ci_show' },
  'project.repo.ci.detect': { cli: 'project repo ci detect', mcp: 'hub_repo_ci_detect' },
  'project.repo.ci.set': { cli: 'project repo ci set' },
  'workspace.terrain': {
    cli: 'workspace terrain',
    mcp: 'hub_workspace_terrain',
    http: 'GET /v3/ops/terrain',
  },
  'config.tree': { cli: 'config tree' },
  'config.preview': { cli: 'config preview', http: 'POST /v3/config/hub/preview' },
  'config.patch': { cli: 'config patch' },
  'appconfig.preview': { http: 'POST /v3/config/appconfig/preview' },
  'project.derived.create': { cli: 'project derived create', mcp: 'hub_project_derived_create' },
  'project.derived.include': { cli: 'project derived include' },
  'project.derived.refresh': { cli: 'project derived refresh' },
  'project.derived.exclude': { cli: 'project derived exclude' },
  'catalog.add': { cli: 'catalog add' },
};

describe('operation registry', () => {
  it('has every binding the specification names', () => {
    const byId = new Map(OPERATIONS.map((op) => [op.id, op]));
    for (const [id, want] of Object.entries(SPEC_BINDINGS)) {
      const op = byId.get(id);
      expect(op, id).toBeDefined();
      if (want.cli) expect(op!.cli?.command, id).toBe(want.cli);
      if (want.mcp) expect(op!.mcp?.tool, id).toBe(want.mcp);
      if (want.http)
        expect(
          op!.http?.map((h) => `${h.method} ${h.route}`),
          id,
        ).toContain(want.http);
    }
  });

  it('keeps ids, commands, tools and routes unique', () => {
    const uniq = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    uniq(OPERATIONS.map((o) => o.id));
    uniq(OPERATIONS.flatMap((o) => (o.cli ? [o.cli.command, ...(o.cli.aliases ?? [])] : [])));
    uniq(OPERATIONS.flatMap((o) => (o.mcp ? [o.mcp.tool] : [])));
    uniq(OPERATIONS.flatMap((o) => (o.http ?? []).map((h) => `${h.method} ${h.route}`)));
  });

  it('gives every operation a summary, attributes and MCP tool names of the hub_ form', () => {
    for (const op of OPERATIONS) {
      expect(op.summary.length, op.id).toBeGreaterThan(10);
      expect(op.summary.length, op.id).toBeLessThan(140);
      if (op.mcp) expect(op.mcp.tool).toMatch(/^hub_[a-z_]+$/);
      if (op.attributes.readOnly) expect(op.attributes.destructive, op.id).toBe(false);
      for (const a of op.cli?.args ?? [])
        expect(Object.keys(op.input.shape), `${op.id} arg ${a}`).toContain(a);
    }
  });

  it('binds GET only to read-only operations, or with the inputs that write fixed off', () => {
    // GET never changes state; test/http-get-never-writes.test.ts proves it on a real server with real state.
    for (const op of OPERATIONS)
      for (const b of op.http ?? []) {
        if (b.method !== 'GET' || op.attributes.readOnly) continue;
        expect(Object.keys(b.fixed ?? {}), `${op.id} writes but is bound to GET ${b.route}`).not.toHaveLength(
          0,
        );
      }
  });
});

/** `hub <words> --help` as the CLI prints it: commander's help of the built command table, in this process. */
async function helpText(words: string[]): Promise<{ code: number; stdout: string }> {
  const entries = await loadCommandTable([new URL('../dist/commands.json', import.meta.url)]);
  let stdout = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    const code = await mainWithCommander(entries, [...words, '--help'], false);
    return { code, stdout };
  } finally {
    process.stdout.write = write;
  }
}

describe('--help', () => {
  const commands = [
    [],
    ...OPERATIONS.flatMap((o) =>
      o.cli ? [o.cli.command, ...(o.cli.aliases ?? [])].map((c) => c.split(' ')) : [],
    ),
    // CLI-only commands for people at a terminal (src/surfaces/tui), not registry operations.
    ['nav'],
    ['select'],
    ['tui'],
  ];
  // Rendered in this process (one `hub` process per command would cost the suite a minute); the built CLI
  // prints exactly the same, which the test after this one checks on a few commands.
  it.each(commands.map((c) => [c.join(' ') || '(root)', c]))('%s --help is stable', async (_name, words) => {
    const r = await helpText(words as string[]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatchSnapshot();
  });

  it.each([[[]], [['component', 'list']], [['state', 'info']], [['web', 'serve']]])(
    'the built CLI prints the same help for %j',
    async (words) => {
      const r = runHub([...words, '--help'], { spawn: true });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe((await helpText(words)).stdout);
    },
  );
});
