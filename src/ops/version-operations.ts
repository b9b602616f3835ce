import type { AnyOperation } from './registry.js';

/** `hub version`, `version check`, `version upgrade`. */
export const VERSION_OPERATIONS: AnyOperation[] = [];
