// The landing train: many repositories' merges integrated in temporary worktrees, validated, then their targets
// moved together by compare-and-swap (or none of them). Usable with or without a campaign; the campaign plan (a
// task graph of its rows) lives here too, taking plain rows.
export { landTrain, type TrainDeps, type TrainInput } from './land.js';
export {
  type CampaignPlanInput,
  campaignGraphId,
  DEFAULT_PLAN_PATTERNS,
  type PlanRow,
  planCampaignGraph,
  REFERENCE_PRIORITY,
} from './plan.js';
export { checkRow } from './preflight.js';
export {
  CAUSE_CODES,
  MAX_CAUSE_FILES,
  MAX_TRAIN_ROWS,
  TRAIN_OUTCOMES,
  type TrainCause,
  type TrainOutcome,
  type TrainReport,
  TrainReportSchema,
  type TrainRow,
  type TrainRowReport,
} from './schema.js';
export { summarize as summarizeTrain } from './summary.js';
