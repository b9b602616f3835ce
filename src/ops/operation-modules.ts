import type { AnyOperation } from './registry.js';

/**
 * Every operation module, in help order. Each loads with import() on first use, so a CLI command evaluates only
 * the module that holds it (and what that imports), never the whole registry.
 */
export const OPERATION_MODULES = {
  component: async (): Promise<AnyOperation[]> => {
    const m = await import('./component-ops.js');
    return [m.componentList, m.componentShow, m.componentResolve, m.componentGraphOp];
  },
  'component-detect': async (): Promise<AnyOperation[]> => {
    const m = await import('./component-detect-ops.js');
    return [m.componentDetect, m.componentInit];
  },
  init: async (): Promise<AnyOperation[]> => [(await import('./workspace-ops.js')).init],
  config: async (): Promise<AnyOperation[]> => {
    const m = await import('./config-ops.js');
    return [m.configValidate, m.configShow, m.configExample];
  },
  graph: async (): Promise<AnyOperation[]> => {
    const m = await import('./graph-ops.js');
    return [m.graphShow, m.graphNeighbors, m.configGraphSuggest, m.configGraphExport];
  },
  appconfig: async (): Promise<AnyOperation[]> => {
    const [m, t] = await Promise.all([import('./appconfig-ops.js'), import('./appconfig-tree-op.js')]);
    return [m.appconfigInfo, m.appconfigValidate, m.appconfigPatch, m.appconfigPreview, t.appconfigTree];
  },
  search: async (): Promise<AnyOperation[]> => [(await import('./search-ops.js')).search],
  'workspace-repo': async (): Promise<AnyOperation[]> => [
    (await import('./workspace-ops.js')).workspaceRepoList,
  ],
  session: async (): Promise<AnyOperation[]> => {
    const m = await import('./session-ops.js');
    return [m.sessionBegin, m.sessionDigestOp, m.sessionUpdateOp];
  },
  state: async (): Promise<AnyOperation[]> => {
    const [info, admin] = await Promise.all([import('./state-ops.js'), import('./state-admin-ops.js')]);
    return [info.stateInfo, admin.stateInit, admin.stateMigrate];
  },
  import: async (): Promise<AnyOperation[]> => [(await import('./import-ops.js')).importRepoManifest],
  objective: async (): Promise<AnyOperation[]> => {
    const m = await import('./objective-ops.js');
    return [m.objectiveSet, m.objectiveEdit, m.objectiveList, m.contextPause, m.contextResume];
  },
  handoff: async (): Promise<AnyOperation[]> => {
    const m = await import('./handoff-ops.js');
    return [
      m.handoffCreate,
      m.handoffList,
      m.handoffClaim,
      m.handoffHeartbeat,
      m.handoffComplete,
      m.handoffCancel,
    ];
  },
  approval: async (): Promise<AnyOperation[]> => {
    const m = await import('./approval-ops.js');
    return [m.approvalRequest, m.approvalList, m.approvalResolve];
  },
  worktree: async (): Promise<AnyOperation[]> => {
    const m = await import('./worktree-ops.js');
    return [m.worktreeCreate, m.worktreeList, m.worktreeAdopt, m.worktreeDestroy, m.worktreeGc];
  },
  events: async (): Promise<AnyOperation[]> => {
    const m = await import('./events-ops.js');
    return [m.contextEvents, m.contextEventsFollow];
  },
  branch: async (): Promise<AnyOperation[]> => {
    const m = await import('./branch-ops.js');
    return [m.branchAllocate, m.branchList, m.branchRelease, m.branchCleanup];
  },
  lease: async (): Promise<AnyOperation[]> => {
    const m = await import('./lease-ops.js');
    return [m.leaseAcquire, m.leaseHeartbeat, m.leaseRelease, m.leaseList];
  },
  agent: async (): Promise<AnyOperation[]> => {
    const m = await import('./agent-ops.js');
    return [m.agentRegistry, m.agentHeartbeatOp];
  },
  'agent-install': async (): Promise<AnyOperation[]> => {
    const m = await import('./agent-install-ops.js');
    const a = await import('./agent-apply-ops.js');
    return [m.agentCreate, a.agentApply];
  },
  'agent-template': async (): Promise<AnyOperation[]> => {
    const m = await import('./agent-template-ops.js');
    return [m.agentList, m.agentShow, m.agentSchema, m.agentValidate, m.agentPreview];
  },
  'agent-template-write': async (): Promise<AnyOperation[]> => {
    const m = await import('./agent-template-write-ops.js');
    return [m.agentExport, m.agentOverlayInit, m.agentOverlayPath];
  },
  'context-pack': async (): Promise<AnyOperation[]> => {
    const m = await import('./context-pack-ops.js');
    return [
      m.contextPack,
      m.repoCard,
      m.contextCompile,
      m.contextSwitch,
      m.projectContextSwitch,
      m.contextRepomix,
    ];
  },
  'workspace-intro': async (): Promise<AnyOperation[]> => {
    const m = await import('./workspace-intro-ops.js');
    return [m.workspaceSummary, m.workspaceHealthOp, m.workspaceListOp, m.workspaceGrepInfo, m.workspaceGrep];
  },
  'repo-resolve': async (): Promise<AnyOperation[]> => [(await import('./repo-resolve-op.js')).repoResolve],
  'repo-open': async (): Promise<AnyOperation[]> => [(await import('./open-op.js')).repoOpen],
  claim: async (): Promise<AnyOperation[]> => {
    const m = await import('./claim-ops.js');
    return [m.claimDeclare, m.claimCheck, m.claimList, m.claimRelease, m.claimHeartbeat];
  },
  'claim-guard': async (): Promise<AnyOperation[]> => {
    const m = await import('./claim-guard-ops.js');
    return [m.claimGuardInstall, m.claimGuardUninstall, m.claimGuardCheck];
  },
  semantic: async (): Promise<AnyOperation[]> => {
    const m = await import('./semantic-ops.js');
    return [
      m.semanticDeclare,
      m.semanticQuery,
      m.semanticOwners,
      m.semanticConflicts,
      m.semanticIngest,
      m.semanticSeed,
    ];
  },
  task: async (): Promise<AnyOperation[]> => {
    const m = await import('./task-ops.js');
    return [m.taskCreate, m.taskExpand, m.taskReady, m.taskList, m.taskStatus];
  },
  'task-transition': async (): Promise<AnyOperation[]> => {
    const m = await import('./task-transition-ops.js');
    return [m.taskStart, m.taskComplete, m.taskBlock, m.taskCancel, m.taskRequeue];
  },
  'task-bind': async (): Promise<AnyOperation[]> => [(await import('./task-bind-ops.js')).taskBindAcl],
  schedule: async (): Promise<AnyOperation[]> => {
    const m = await import('./schedule-ops.js');
    return [m.scheduleNextOp, m.scheduleStatusOp, m.schedulePolicyShow, m.schedulePolicySet];
  },
  run: async (): Promise<AnyOperation[]> => {
    const m = await import('./run-ops.js');
    return [m.runOpen, m.runClose, m.runList, m.runShow, m.runReplay, m.runExport];
  },
  route: async (): Promise<AnyOperation[]> => {
    const m = await import('./route-ops.js');
    return [m.routeQueryOp, m.routeAdd, m.routeList, m.routeShow, m.laneEval];
  },
  policy: async (): Promise<AnyOperation[]> => {
    const m = await import('./policy-ops.js');
    return [m.policyEval, m.policySet, m.policyList, m.policyShow];
  },
  merge: async (): Promise<AnyOperation[]> => {
    const m = await import('./merge-ops.js');
    const f = await import('./merge-flow-ops.js');
    return [
      m.mergeEnqueue,
      m.mergeStatus,
      m.mergeIntegrate,
      m.mergeRetry,
      m.mergeCancel,
      f.mergePromote,
      f.mergeRollup,
      m.mergeTransition,
    ];
  },
  'merge-train': async (): Promise<AnyOperation[]> => [(await import('./merge-train-ops.js')).mergeTrain],
  aos: async (): Promise<AnyOperation[]> => {
    const m = await import('./aos-ops.js');
    return [m.aosStatusOp, m.aosDoctorOp, m.aosNextOp, m.aosRecoverOp, m.aosHeartbeatOp];
  },
  skills: async (): Promise<AnyOperation[]> => {
    const m = await import('./skills-ops.js');
    return [m.skillsList, m.skillsInstall];
  },
  'mcp-install': async (): Promise<AnyOperation[]> => [(await import('./mcp-install-ops.js')).mcpInstall],
  version: async (): Promise<AnyOperation[]> => {
    const m = await import('./version-ops.js');
    return [m.version, m.versionCheck, m.versionUpgrade];
  },
  'agent-dispatch': async (): Promise<AnyOperation[]> => {
    const m = await import('./agent-dispatch-ops.js');
    return [m.agentProfileShow, m.agentDispatchPlan];
  },
  prompt: async (): Promise<AnyOperation[]> => {
    const m = await import('./prompt-ops.js');
    return [m.promptList, m.promptShow];
  },
  'repo-ci': async (): Promise<AnyOperation[]> => {
    const m = await import('./ci-ops.js');
    return [m.repoCiShow, m.repoCiDetect, m.repoCiSet];
  },
  'workspace-terrain': async (): Promise<AnyOperation[]> => [
    (await import('./terrain-ops.js')).workspaceTerrain,
  ],
  'config-studio': async (): Promise<AnyOperation[]> => {
    const m = await import('./config-studio-ops.js');
    return [m.configTreeOp, m.configPreview, m.configPatch];
  },
  derived: async (): Promise<AnyOperation[]> => {
    const m = await import('./derived-ops.js');
    return [
      m.projectDerivedCreate,
      m.projectDerivedInclude,
      m.projectDerivedRefresh,
      m.projectDerivedExclude,
    ];
  },
  catalog: async (): Promise<AnyOperation[]> => [(await import('./catalog-ops.js')).catalogAdd],
  'project-sync': async (): Promise<AnyOperation[]> => [(await import('./sync-ops.js')).projectSync],
  'project-source': async (): Promise<AnyOperation[]> => {
    const m = await import('./source-ops.js');
    return [m.projectSourceSync, m.workspaceDiscover];
  },
  'project-prune': async (): Promise<AnyOperation[]> => [(await import('./prune-ops.js')).projectRepoPrune],
  org: async (): Promise<AnyOperation[]> => {
    const m = await import('./org-ops.js');
    return [m.orgIndex, m.orgSearch, m.repoMaterialize];
  },
  campaign: async (): Promise<AnyOperation[]> => {
    const m = await import('./campaign-ops.js');
    return [
      m.campaignNew,
      m.campaignList,
      m.campaignStatus,
      m.campaignValidate,
      (await import('./campaign-set-ops.js')).campaignSet,
      m.campaignExpand,
      ...(await import('./campaign-lesson-ops.js')).campaignLessons,
    ];
  },
  'campaign-context': async (): Promise<AnyOperation[]> => [
    (await import('./campaign-context-ops.js')).campaignContext,
  ],
  'campaign-land': async (): Promise<AnyOperation[]> => {
    const m = await import('./campaign-land-ops.js');
    return [m.campaignLand, m.campaignPlan];
  },
  'campaign-board': async (): Promise<AnyOperation[]> => [
    (await import('./campaign-board-ops.js')).campaignBoardSync,
  ],
  atlas: async (): Promise<AnyOperation[]> => {
    const m = await import('./atlas-ops.js');
    return [m.atlasInit, m.atlasGenerate, m.atlasValidate, m.atlasStatusOp, m.atlasRefresh, m.atlasQuery];
  },
};

/** The name of one operation module. */
export type OperationModule = keyof typeof OPERATION_MODULES;

/** Every operation, in help order, with the module that holds each. */
export async function loadOperationsByModule(): Promise<
  Array<{ module: OperationModule; op: AnyOperation }>
> {
  const names = Object.keys(OPERATION_MODULES) as OperationModule[];
  const lists = await Promise.all(names.map((name) => OPERATION_MODULES[name]()));
  return names.flatMap((module, i) => lists[i]!.map((op) => ({ module, op })));
}

/** Every operation hub has, in help order. Surfaces that serve the whole registry start from this. */
export async function loadOperations(): Promise<AnyOperation[]> {
  return (await loadOperationsByModule()).map((e) => e.op);
}

/** One operation, loading only its module. */
export async function loadOperation(module: string, id: string): Promise<AnyOperation> {
  const load = (OPERATION_MODULES as Record<string, () => Promise<AnyOperation[]>>)[module];
  const op = (await load?.())?.find((o) => o.id === id);
  if (!op) throw new Error(`operation ${id} is not in module ${module}; rebuild hub (npm run build)`);
  return op;
}
