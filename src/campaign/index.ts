// The campaign room: one change across many repositories. Documents (files.ts, schema.ts, legacy.ts, edit.ts),
// selection, status rollups, expand into objectives, board links (GitHub Projects, Azure Boards) and the context
// an agent needs for its row. Operations (src/ops/campaign-*.ts) and later rooms (the plan into a task graph,
// the landing train) use it only through this door.
export { azureBoard, azureHtml } from './azure-board.js';
export {
  type Board,
  type BoardInfo,
  type BoardItem,
  type BoardState,
  type BoardTarget,
  type ItemContent,
  rowStatusOfState,
  stateForRow,
} from './board.js';
export { BOARD_TOKEN_VARIABLES, type BoardConnection, boardConnection } from './board-http.js';
export {
  applyBoardSync,
  BoardSyncStopped,
  itemContent,
  planBoardSync,
  type SyncAction,
  type SyncPlan,
  type SyncRow,
  stoppedError,
} from './board-sync.js';
export {
  type CampaignContext,
  CONTEXT_EXAMPLES,
  type ContextParts,
  contextLadder,
  localBranches,
  pickCampaignBranch,
  REFERENCE_LIMITS,
  type ReferenceChanges,
  referenceChanges,
} from './context.js';
export { appendLesson, setField, setRowFields, setWorkItem } from './edit.js';
export { CAMPAIGN_EVENT_SOURCE, type CampaignEventKind, recordCampaignEvent } from './events.js';
export {
  type ExpandItem,
  type ExpandPlan,
  expandObjectives,
  OBJECTIVE_STATUS_OF_ROW,
  objectiveTitle,
  planExpand,
  routedRows,
} from './expand.js';
export {
  CAMPAIGN_LOCK,
  CAMPAIGNS_PATH_RULE,
  type CampaignFileProblem,
  type CampaignPlace,
  campaignPlace,
  campaignText,
  checkSlug,
  createCampaignFile,
  type LoadedCampaign,
  listCampaignFiles,
  parseCampaignText,
  readCampaign,
  relPath,
  updateCampaign,
} from './files.js';
export { githubBoard } from './github-board.js';
export { type LegacySpelling, normalizeLegacy, STATUS_ALIASES, tagListToMap } from './legacy.js';
export {
  BOARD_PROVIDERS,
  type BoardProviderName,
  CAMPAIGN_LIMITS,
  CAMPAIGN_SCHEMA_VERSION,
  CAMPAIGN_STATUSES,
  type Campaign,
  type CampaignRow,
  CampaignSchema,
  type CampaignStatus,
  campaignObjectiveId,
  campaignObjectivePrefix,
  type Lesson,
  REPO_REF_RE,
  ROW_STATUSES,
  type RowStatus,
  rowRef,
  SLUG_RE,
  type WorkItemRef,
} from './schema.js';
export {
  checkRepoRef,
  checkRepoRefs,
  matchesTags,
  mergedTags,
  parseTagArgs,
  selectRepos,
  type TagMap,
} from './selection.js';
export {
  type CampaignCounts,
  type CampaignStatusView,
  type CampaignSummary,
  countRows,
  type RowObjective,
  type StatusRow,
  statusView,
  summarize,
} from './summary.js';
export {
  type CampaignCheck,
  type CampaignProblem,
  checkCampaign,
  checkCampaignFile,
  checkCampaigns,
  type ProblemSeverity,
} from './validate.js';
