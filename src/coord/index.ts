export {
  type ApprovalRequestInput,
  approvalListing,
  listApprovals,
  type ResolveInput,
  requestApproval,
  resolveApproval,
} from './approvals.js';
export { type NewCoordEvent, objectiveCreatedEvent, recordEvent } from './change-events.js';
export { documentListKey, normalizeAppended, normalizeDocument } from './document-shapes.js';
export {
  type CoordDeps,
  checkId,
  DOCS,
  newId,
  parseDoc,
  readDoc,
  readDocSettingAside,
  updateDoc,
} from './documents.js';
export { DURATION_RULE, MAX_DURATION_MS, parseDuration } from './duration.js';
export { type EventsFilter, eventsFeed, handoffEvents, objectiveEvents, parseSince } from './events.js';
export {
  eventCursor,
  type FollowedEvent,
  type FollowFilter,
  followEvents,
  parseCursor,
} from './events-follow.js';
export { appendSequenced, MAX_RECORDED_EVENTS, recordSequenced, sequenced } from './events-sequence.js';
export {
  type ClaimInput,
  cancelHandoff,
  claimExpired,
  claimHandoff,
  completeHandoff,
  createHandoff,
  type HandoffCreate,
  handoffsView,
  heartbeatHandoff,
  listHandoffs,
  newHandoff,
  releaseExpired,
  SYSTEM_ACTOR,
} from './handoffs.js';
export {
  checkEditableFields,
  editObjective,
  formatNoteLines,
  listObjectives,
  normalizeRepoRef,
  normalizeRepos,
  type ObjectiveUpsert,
  objectiveListing,
  objectivePatch,
  parseObjectiveStatus,
  type QuickNotes,
  slugify,
  type UpsertOptions,
  type UpsertResult,
  upsertObjective,
} from './objectives.js';
export {
  describeObjective,
  objectiveMatches,
  type ResumePick,
  rankObjectives,
  resumeObjective,
} from './resume.js';
export {
  APPROVAL_DECISIONS,
  APPROVAL_STATUSES,
  type ApprovalDecision,
  type ApprovalRequest,
  ApprovalRequestSchema,
  type ApprovalsDoc,
  ApprovalsDocSchema,
  type CoordEvent,
  CoordEventSchema,
  EDITABLE_OBJECTIVE_FIELDS,
  type EditableObjectiveField,
  EventsDocSchema,
  type EventsFeed,
  HANDOFF_STATUSES,
  type Handoff,
  type HandoffEvent,
  HandoffEventSchema,
  HandoffSchema,
  type HandoffStatus,
  type HandoffsDoc,
  HandoffsDocSchema,
  ID_RE,
  OBJECTIVE_STATUSES,
  type Objective,
  ObjectiveSchema,
  type ObjectiveStatus,
  type ObjectivesDoc,
  ObjectivesDocSchema,
} from './schemas.js';
export {
  activeObjectiveId,
  type BeginEnvelope,
  beginSession,
  type Digest,
  headsOf,
  type RepoChange,
  type RepoRef,
  SESSION_DOCUMENT,
  type SessionDoc,
  sessionDigest,
  updateSession,
} from './session.js';
export { type SetAsideRecord, setAsideLine } from './set-aside.js';
