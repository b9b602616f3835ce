import type { CatalogRepo, Checkouts } from '../catalog/index.js';
import type { SyncRow, SyncTarget } from './sync-repo.js';

/**
 * Turns catalog repositories into sync targets. A repository outside the workspace is never touched (reported
 * as skipped), and two entries sharing one checkout are synced once.
 */
export function planSync(
  repos: readonly CatalogRepo[],
  checkouts: Checkouts,
): { targets: SyncTarget[]; preset: SyncRow[] } {
  const targets: SyncTarget[] = [];
  const preset: SyncRow[] = [];
  const seen = new Map<string, string>();
  for (const r of repos) {
    if (r.kind !== 'workspace') continue;
    const base = { id: r.id, project: r.project, repo: r.name };
    const c = checkouts.of(r);
    if (c.state === 'outside') {
      preset.push({
        ...base,
        path: r.root,
        action: 'skipped',
        reason: 'outside_workspace',
        message: c.error.message,
      });
      continue;
    }
    const dir = c.state === 'present' ? c.dir : r.root;
    const first = seen.get(dir);
    if (first) {
      preset.push({
        ...base,
        path: dir,
        action: 'skipped',
        reason: 'same_checkout',
        message: `same checkout as ${first}`,
      });
      continue;
    }
    seen.set(dir, r.id);
    targets.push({ ...base, dir, present: c.state === 'present', url: r.url });
  }
  return { targets, preset };
}
