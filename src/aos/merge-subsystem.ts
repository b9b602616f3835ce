import type { CoordDeps } from '../coord/index.js';
import { mergePressure, mergeSummary, readAllMerges } from '../merge/index.js';
import { readPolicy } from '../schedule/index.js';
import type { AosSubsystem, Finding } from './subsystem.js';

/**
 * The merge queue: counts by state, and the doctor's findings: merges stopped on a conflict, a failure or their
 * validators (each needs an agent), and repositories whose queue is long: as many queued or running requests
 * as the scheduler's `merge_queue_threshold` (the point where it starts to steer agents away).
 */
export function mergeSubsystem(deps: CoordDeps): AosSubsystem {
  return {
    name: 'merge',
    async summary() {
      return { ...(await mergeSummary(deps)), pressure: await mergePressure(deps) };
    },
    async findings(summary) {
      const out: Finding[] = [];
      for (const m of await readAllMerges(deps)) {
        if (m.status !== 'conflict' && m.status !== 'failed' && m.status !== 'validation_failed') continue;
        out.push({
          severity: 'warning',
          code: m.status === 'conflict' ? 'merge_conflict' : 'merge_failed',
          subsystem: 'merge',
          subject: m.merge_id,
          message: `merge ${m.merge_id} of ${m.source_branch} into ${m.target_branch} (${m.repository}) stopped: ${m.status}`,
          command: `hub merge status --merge-id ${m.merge_id}`,
        });
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
