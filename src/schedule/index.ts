export {
  DecisionsDocSchema,
  MAX_DECISIONS,
  readDecisions,
  recordDecisions,
  type ScheduleDecision,
  ScheduleDecisionSchema,
} from './decisions.js';
export { MAX_NEXT_LIMIT, type NextInput, type NextResult, scheduleNext } from './next.js';
export {
  checkPolicyPatch,
  DECISIONS_DOCUMENT,
  DEFAULT_POLICY,
  POLICY_DOCUMENT,
  POLICY_RANGES,
  type PolicyPatch,
  readPolicy,
  type SchedulePolicy,
  SchedulePolicySchema,
  setPolicy,
  WEIGHT_NAMES,
  type WeightName,
} from './policy.js';
export {
  DEFAULT_TOKENS,
  fairnessKey,
  type LiveWorktree,
  rankNodes,
  type ScoreContext,
  type Scored,
  type ScoreTerms,
  scoreNode,
} from './score.js';
export { type ScheduleStatus, scheduleStatus } from './status.js';
