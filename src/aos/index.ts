export { aclSubsystem, deadHolders } from './acl-subsystem.js';
export { mergeSubsystem } from './merge-subsystem.js';
export {
  type AgentRecovery,
  type Recoverer,
  type RecoverOptions,
  type RecoverResult,
  recoverAgents,
  type WorktreeRecovery,
} from './recover.js';
export { runsRecoverer, runsSubsystem } from './runs-subsystem.js';
export { semanticSubsystem } from './semantic-subsystem.js';
export { type AosDoctor, type AosStatus, aosDoctor, aosStatus } from './status.js';
export {
  type AosSubsystem,
  FINDING_SEVERITIES,
  type Finding,
  FindingSchema,
  type SubsystemView,
} from './subsystem.js';
export { schedulerSubsystem, taskgraphSubsystem, tasksRecoverer } from './tasks-subsystem.js';
