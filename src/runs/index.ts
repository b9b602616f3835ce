export {
  CLASS_ID_RE,
  CLASS_LIMITS,
  CLASSES_DOCUMENT,
  type ClassEvidence,
  ClassesDocSchema,
  checkClassId,
  PROMOTION_STATES,
  type RequestClass,
  RequestClassSchema,
  ROUTING_COLLECTION,
} from './class-schema.js';
export {
  addClass,
  type ClassInput,
  checkTriggers,
  findClass,
  listClasses,
  readClasses,
  SHOW_CLASS_RUNS,
  showClass,
} from './classes.js';
export { RUN_EVENT_KINDS, type RunEventKind, recordRunEvent } from './events.js';
export { EXPORT_FORMATS, type ExportFormat, exportRuns, type RunExport } from './export.js';
export {
  DEFAULT_LANE_POLICY,
  decideLane,
  evaluateLanes,
  type LaneAction,
  type LaneDecision,
  type LaneEvalResult,
  type LanePolicy,
} from './lanes.js';
export {
  DEFAULT_RUN_PAGE,
  listRuns,
  MAX_RUN_PAGE,
  pageRuns,
  type RunFilter,
  type RunPage,
  readRun,
  runIds,
  runNotFound,
  showRun,
} from './ledger-read.js';
export {
  type CloseRunInput,
  closeRun,
  evidenceOf,
  type OpenRunInput,
  openRun,
  parseGates,
  replayRun,
} from './ledger-write.js';
export {
  checkPolicyName,
  conditionHolds,
  decidePolicy,
  evaluatePolicy,
  listPolicies,
  type PolicyDecision,
  parsePolicy,
  readPolicies,
  setPolicy,
  showPolicy,
} from './policies.js';
export {
  type Condition,
  POLICIES_DOCUMENT,
  POLICY_EFFECTS,
  POLICY_LIMITS,
  type Policy,
  type PolicyEffect,
  type PolicyRule,
} from './policy-schema.js';
export { redactDeep, redactText } from './redact-text.js';
export {
  DEFAULT_ROUTE_LIMIT,
  MAX_ASK_CHARS,
  MAX_ROUTE_LIMIT,
  type RouteAnswer,
  type RouteMatch,
  routeQuery,
  STOPWORDS,
  tokenize,
} from './router.js';
export {
  checkRunId,
  DISPATCH_FIELDS,
  type Gate,
  newRunId,
  RUN_ID_RE,
  RUN_LIMITS,
  RUN_OUTCOMES,
  RUN_STATUSES,
  RUNS_COLLECTION,
  type RunOutcome,
  type RunRecord,
  RunSchema,
  runDocument,
  TIERS,
  type Tier,
} from './run-schema.js';
