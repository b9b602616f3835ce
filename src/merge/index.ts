export {
  MERGE_STATUSES,
  MERGES_COLLECTION,
  type MergeRequest,
  MergeRequestSchema,
  type MergeStatus,
  type MergesDoc,
  MergesDocSchema,
  mergePressure,
  mergesDocument,
  PENDING_MERGE_STATUSES,
  readAllMerges,
} from './records.js';
