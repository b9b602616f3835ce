import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from './hash.js';

/** Writes a file so that a crash at any instant leaves the old or the new content, never a torn one. */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  mode = 0o644,
  opts: { syncDir?: boolean } = {},
): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
  const fd = openSync(tmp, 'w', mode);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    safeUnlink(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    safeUnlink(tmp);
    throw err;
  }
  // A caller that syncs the folder itself (together with other files, in one journal commit) skips it here.
  if (opts.syncDir !== false) fsyncDir(dir);
}

function safeUnlink(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // already gone
  }
}

/** Syncs a folder, making a rename or a new file in it durable; a file system that refuses is not an error. */
export function fsyncDir(dir: string): void {
  // Makes the rename itself durable; some filesystems refuse fsync on a directory, which is harmless here.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported
  }
}
