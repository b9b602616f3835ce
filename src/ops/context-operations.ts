import type { AnyOperation } from './registry.js';

/** Context packs and workspace introspection (tiers, compile, switch, repomix, summary, health, grep). */
export const CONTEXT_OPERATIONS: AnyOperation[] = [];
