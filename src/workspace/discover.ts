import { type Dirent, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_DIRS } from '../catalog/index.js';
import { toRootRelative } from '../infra/index.js';

export interface DiscoveredRepo {
  project: string;
  name: string;
  /** Manifest-relative path, `./`-prefixed. */
  path: string;
}

const sanitize = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'repo';

/**
 * Finds git checkouts under `root` (at most `maxDepth` levels down, not descending into a found repo).
 * A repo directly under the root goes to project `default`; deeper ones are grouped by their parent folder.
 */
export function discoverRepos(root: string, maxDepth = 3): DiscoveredRepo[] {
  const out: DiscoveredRepo[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!e.isDirectory() || SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
      const abs = join(dir, e.name);
      if (existsSync(join(abs, '.git'))) {
        const rel = toRootRelative(root, abs);
        const parts = rel.split('/');
        out.push({
          project: parts.length > 1 ? sanitize(parts[parts.length - 2]!) : 'default',
          name: sanitize(e.name),
          path: `./${rel}`,
        });
      } else if (depth < maxDepth) walk(abs, depth + 1);
    }
  };
  walk(root, 1);
  return out;
}
