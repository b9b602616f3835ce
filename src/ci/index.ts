export {
  CI_MAX_FILE_BYTES,
  type CiDetection,
  type CiFileDetail,
  describeCiFile,
  detectCi,
} from './describe.js';
export {
  type CiDescriptor,
  checkDescriptor,
  configPathOf,
  declaredCi,
  suggestedCi,
} from './descriptor.js';
export { type CiFileRef, ciFiles, type Listing, listFolder, providersOf } from './files.js';
export {
  CI_LABELS,
  CI_LOCATIONS,
  CI_PROVIDERS,
  CI_ROOT_NAMES,
  type CiProvider,
  isCiProvider,
} from './providers.js';
export { CI_MAX_RUN_LINES, type CiRunLine, ciRunLines, RUN_LINE_PROVIDERS } from './run-lines.js';
export { writeRepoCi } from './set.js';
export { CI_MAX_NAMES, type CiShape } from './shape.js';
