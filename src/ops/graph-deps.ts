import type { ExternalRepo } from '../graph/index.js';
import { localMatcher, readOrgIndexes } from '../org/index.js';
import { localsOf } from '../sync/index.js';
import type { OpContext } from './context.js';

/**
 * The organization index's repositories (`org index`), shown in the workspace graph as repo nodes without a local
 * path (presence indexed), or as the workspace repository they were materialized as (matched by source provenance,
 * else by clone URL; the node keeps the identity `<provider>://<org>/<repo>`). No index: none, and the graph's
 * external nodes are the manifest's curated `graph.nodes` (presence known).
 */
export function externalRepos(ctx: OpContext): ExternalRepo[] {
  const files = readOrgIndexes(ctx.root());
  if (files.length === 0) return [];
  const local = localMatcher(localsOf(ctx.workspace().file));
  return files.flatMap((f) =>
    f.repos.map((r): ExternalRepo => {
      const at = local(r);
      const url = r.clone_url ?? r.ssh_url;
      return {
        identity: r.identity,
        provider: r.provider,
        organization: r.namespace,
        name: r.name,
        presence: at ? 'materialized' : 'indexed',
        ...(url ? { url } : {}),
        ...(at ? { repo_id: at } : {}),
        ...(r.description ? { description: r.description } : {}),
      };
    }),
  );
}
