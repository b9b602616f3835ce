// Finds `rg` on PATH without running it (the benchmarks skip when it is missing).
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findRipgrepOnPath(path = process.env.PATH ?? '') {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      if (statSync(join(dir, 'rg')).isFile()) return join(dir, 'rg');
    } catch {
      // not here
    }
  }
  return null;
}
