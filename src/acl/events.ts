import { type CoordDeps, recordEvent } from '../coord/index.js';

/**
 * Records one lifecycle change of an ACL record in the persisted events document (`coord.events`, the spec's
 * persisted part of the feed), so `context events`, `GET /v3/ops/events` and `hub_events` show it. `subject` is
 * the repository id; `source` is `acl` (or `semantic` for concepts).
 */
export async function recordAclEvent(
  deps: CoordDeps,
  kind: string,
  repository: string,
  data: Record<string, unknown>,
  source: 'acl' | 'semantic' = 'acl',
): Promise<void> {
  await recordEvent(
    deps.store,
    { source, kind, subject: repository, data: { repository, ...data } },
    deps.now,
  );
}
