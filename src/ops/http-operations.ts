import { repoOpen } from './open-op.js';
import type { AnyOperation } from './registry.js';
import { repoResolve } from './repo-resolve-op.js';

/** Operations that exist for the HTTP server's routes (open, repo resolve). */
export const HTTP_OPERATIONS: AnyOperation[] = [repoResolve, repoOpen];
