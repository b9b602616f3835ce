import { type CoordDeps, recordEvent } from '../coord/index.js';

/**
 * The event kinds of the run ledger, routing, lanes and policies, all with source `run` (the spec's orchestration
 * sources): subject is the run id, the class id or the policy name.
 */
export const RUN_EVENT_KINDS = [
  'RunOpened',
  'RunClosed',
  'RunReplayed',
  'RequestClassAdded',
  'RequestClassUpdated',
  'LaneEvaluated',
  'LanePromoted',
  'LaneDemoted',
  'PolicySet',
] as const;
export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

/** Appends one event to the persisted feed (`coord.events`): `context events`, `GET /v3/ops/events`, `hub_events`. */
export async function recordRunEvent(
  deps: CoordDeps,
  kind: RunEventKind,
  subject: string,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEvent(deps.store, { source: 'run', kind, subject, data }, deps.now);
}
