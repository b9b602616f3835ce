import { constants, copyFileSync } from 'node:fs';

/** `20260102T030405Z`: sorts by time, and has no character a file system or a shell treats specially. */
function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * Copies `path` to `<path>.bak-<UTC time>` beside it (`-1`, `-2`, ... when that name is taken) and returns the
 * copy's path. Never overwrites: each backup is a new file, so running twice keeps both earlier versions.
 */
export function backupFileSync(path: string, now: Date): string {
  const base = `${path}.bak-${stamp(now)}`;
  for (let n = 0; ; n++) {
    const target = n === 0 ? base : `${base}-${n}`;
    try {
      copyFileSync(path, target, constants.COPYFILE_EXCL);
      return target;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw err;
    }
  }
}
