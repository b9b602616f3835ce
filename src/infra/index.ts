export { fsyncDir, writeFileAtomicSync } from './atomic-file.js';
export { backupFileSync } from './backup-file.js';
export { readBoundedBody } from './bounded-body.js';
export { childProcess } from './child-process.js';
export { didYouMean, suggestionText } from './did-you-mean.js';
export {
  AmbiguousError,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetails,
  errorMapping,
  HubError,
  NotFoundError,
  PreconditionRequiredError,
  RefusedError,
  StateConflictError,
  toHubError,
  UnauthorizedError,
  UsageError,
  ValidationError,
} from './errors.js';
export { type GitOptions, type GitResult, runGit } from './git.js';
export { fnv1a64Hex, randomHex, sha256Hex } from './hash.js';
export { inTurn } from './in-turn.js';
export {
  type BoundsViolation,
  boundsError,
  checkJsonBounds,
  DOCUMENT_BOUNDS,
  findBoundsViolation,
  findDepthViolation,
  INPUT_BOUNDS,
  type JsonBounds,
  jsonPath,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_INPUT_BYTES,
  MAX_INPUT_DEPTH,
  shortPath,
} from './input-bounds.js';
export { rememberSecret, scrubSecrets, scrubSecretsDeep } from './known-secrets.js';
export { mapLimit } from './map-limit.js';
export {
  isInside,
  type NormalizedPath,
  normalizeRelPath,
  realpathDeepest,
  realpathOrUndefined,
  resolveInside,
  toRootRelative,
} from './paths.js';
export {
  type BoundedRead,
  type BoundedReadOptions,
  type ReadRefusal,
  readFileBounded,
  resolveReal,
  tryReadFileBounded,
  writeFileUnder,
} from './safe-fs.js';
export {
  jsonNestingViolation,
  MAX_FILE_NESTING,
  type NestingViolation,
  nestingMessage,
  tomlNestingViolation,
} from './text-nesting.js';
