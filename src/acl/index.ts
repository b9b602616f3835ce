export { type AgentRecord, AgentRecordSchema, listAgents, touchAgent } from './agents.js';
export { recordAclEvent } from './events.js';
export {
  AGENT_ID_RE,
  checkAgentId,
  DEFAULT_ACL_TTL,
  expiryOf,
  type Holding,
  isLive,
} from './liveness.js';
export {
  ACL,
  type AclCollection,
  type AclDeps,
  aclDocument,
  aclDocuments,
  readAcl,
  updateAcl,
} from './records.js';
export {
  type RepoResolveDeps,
  type RepoTarget,
  repoKey,
  resolveRepository,
} from './repository-ref.js';
