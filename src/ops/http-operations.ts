import type { AnyOperation } from './registry.js';

/** Operations that exist for the HTTP server's routes (document routes, open, repo resolve). */
export const HTTP_OPERATIONS: AnyOperation[] = [];
