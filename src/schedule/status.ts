import type { CoordDeps } from '../coord/index.js';
import { mergePressure } from '../merge/index.js';
import { listNodes } from '../taskgraph/index.js';
import { MAX_DECISIONS, readDecisions, type ScheduleDecision } from './decisions.js';
import { readPolicy, type SchedulePolicy } from './policy.js';

export interface ScheduleStatus {
  policy: SchedulePolicy;
  /** Ready nodes over every graph. */
  ready_count: number;
  /** The newest decisions, newest first. */
  recent_decisions: ScheduleDecision[];
  /** Decisions kept (at most MAX_DECISIONS). */
  decisions_kept: number;
  /** Queued and running merges by repository. */
  merge_pressure: Record<string, number>;
}

/** `schedule status`: the policy, the ready count, recent decisions and merge pressure (a pure read). */
export async function scheduleStatus(
  deps: CoordDeps,
  opts: { recent?: number } = {},
): Promise<ScheduleStatus> {
  const recent = Math.min(Math.max(opts.recent ?? 10, 0), MAX_DECISIONS);
  const [policy, ready, decisions, pressure] = await Promise.all([
    readPolicy(deps),
    listNodes(deps, { status: 'ready' }),
    readDecisions(deps),
    mergePressure(deps),
  ]);
  return {
    policy,
    ready_count: ready.length,
    recent_decisions: (recent === 0 ? [] : decisions.slice(-recent)).reverse(),
    decisions_kept: decisions.length,
    merge_pressure: pressure,
  };
}
