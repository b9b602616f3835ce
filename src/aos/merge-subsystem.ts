import type { CoordDeps } from '../coord/index.js';
import {
  type MergeBlock,
  type MergeRequest,
  mergePressure,
  mergeSummary,
  readAllMerges,
} from '../merge/index.js';
import { readPolicy } from '../schedule/index.js';
import type { AosSubsystem, Finding } from './subsystem.js';

/** What the doctor asks this machine about a request: git work the merge room does, given by the ops layer. */
export interface MergeProbes {
  /** Why a queued request cannot be integrated here (its target checked out), or undefined. */
  blockOf?: (m: MergeRequest) => Promise<MergeBlock | undefined>;
  /** True when a running request's integrator (`host:pid`) is a process of this machine that is gone. */
  integratorGone?: (integrator: string) => boolean;
}

const cancelOf = (m: MergeRequest) => `hub merge cancel --merge-id ${m.merge_id}`;

/**
 * The merge queue: counts by state, and the doctor's findings: every request that cannot proceed, with its cause
 * and the command that frees it: queued behind a checked-out target, left running by an integrator that is gone,
 * stopped on a conflict, a failure or its validators; and repositories whose queue is long: as many queued or
 * running requests as the scheduler's `merge_queue_threshold` (the point where it starts to steer agents away).
 */
export function mergeSubsystem(deps: CoordDeps, probes: MergeProbes = {}): AosSubsystem {
  return {
    name: 'merge',
    async summary() {
      return { ...(await mergeSummary(deps)), pressure: await mergePressure(deps) };
    },
    async findings(summary) {
      const out: Finding[] = [];
      for (const m of await readAllMerges(deps)) {
        const f = await requestFinding(m, probes);
        if (f) out.push(f);
      }
      const pressure = (summary.pressure ?? {}) as Record<string, number>;
      const threshold = (await readPolicy(deps)).merge_queue_threshold;
      for (const [repository, n] of Object.entries(pressure))
        if (n >= threshold)
          out.push({
            severity: 'info',
            code: 'merge_pressure',
            subsystem: 'merge',
            subject: repository,
            message: `${n} merges are queued or running in ${repository}; integrate them before starting more work there`,
            command: `hub merge integrate --repository ${repository}`,
          });
      return out;
    },
  };
}

async function requestFinding(m: MergeRequest, probes: MergeProbes): Promise<Finding | undefined> {
  const what = `merge ${m.merge_id} of ${m.source_branch} into ${m.target_branch} (${m.repository})`;
  const base = { severity: 'warning' as const, subsystem: 'merge', subject: m.merge_id };
  if (m.status === 'queued') {
    const block = await probes.blockOf?.(m);
    if (!block) return undefined;
    return {
      ...base,
      code: 'merge_blocked',
      message: `${what} cannot proceed: ${block.message}`,
      command: block.command,
    };
  }
  if (m.status === 'running') {
    if (!m.integrator || probes.integratorGone?.(m.integrator) !== true) return undefined;
    return {
      ...base,
      code: 'merge_stale',
      message: `${what} is running for integrator ${m.integrator}, a process of this machine that is gone: take it back and integrate it, or withdraw it once retried (${cancelOf(m)})`,
      command: `hub merge retry --merge-id ${m.merge_id}`,
    };
  }
  if (m.status === 'conflict')
    return {
      ...base,
      code: 'merge_conflict',
      message: `${what} stopped on a conflict in ${(m.conflict?.files ?? []).join(', ') || 'its files'}: merge status shows the commands that take it; or withdraw it (${cancelOf(m)})`,
      command: `hub merge status --merge-id ${m.merge_id}`,
    };
  if (m.status === 'validation_failed') {
    const failed = m.validation?.commands.at(-1)?.argv.join(' ');
    return {
      ...base,
      code: 'merge_failed',
      message: `${what} stopped: validation_failed${failed ? ` (${failed})` : ''}: merge status shows its output; fix the branch and retry, or withdraw it (${cancelOf(m)})`,
      command: `hub merge status --merge-id ${m.merge_id}`,
    };
  }
  if (m.status === 'failed')
    return {
      ...base,
      code: 'merge_failed',
      message: `${what} stopped: failed${m.error_message ? ` (${m.error_message})` : ''}${m.retryable ? '; it may pass on a retry' : `; withdraw it (${cancelOf(m)}) or fix the cause and retry`}`,
      command: m.retryable ? `hub merge retry --merge-id ${m.merge_id}` : cancelOf(m),
    };
  return undefined;
}
