import type { AnyOperation } from './registry.js';
import { version, versionCheck, versionUpgrade } from './version-ops.js';

/** `hub version`, `version check`, `version upgrade`. */
export const VERSION_OPERATIONS: AnyOperation[] = [version, versionCheck, versionUpgrade];
