import type { ExternalRepo } from '../graph/index.js';
import type { OpContext } from './context.js';

/**
 * The organization index's repositories, shown in the workspace graph as repo nodes without a local path
 * (presence indexed), or as the workspace repository they were materialized as. The org index (`org index`,
 * `repo materialize`) fills this port; until it stores observations there are none, and the graph's external
 * nodes are the manifest's curated `graph.nodes` (presence known).
 */
export function externalRepos(_ctx: OpContext): ExternalRepo[] {
  return [];
}
