// Shared imports of the catalog room, so each file names one door.
export {
  isInside,
  NotFoundError,
  normalizeRelPath,
  RefusedError,
  realpathDeepest,
  realpathOrUndefined,
  resolveReal,
  toRootRelative,
  tryReadFileBounded,
  ValidationError,
} from '../infra/index.js';

export const NAME_RE_MESSAGE =
  "names start with a letter or digit and use only letters, digits, '.', '_' and '-'";
