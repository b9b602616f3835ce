import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Environment the daemon must share with a client it serves: what git, and hub's user dirs, read from it. */
export const SHARED_ENV =
  /^(PATH|HOME|TMPDIR|GIT_.*|XDG_(CONFIG|CACHE|DATA|STATE)_HOME|XDG_(CONFIG|DATA)_DIRS)$/;

type Env = Readonly<Record<string, string | undefined>>;

/** The folder of this user's daemon sockets: $XDG_RUNTIME_DIR/hub, else <tmp>/hub-<uid>. */
export function daemonDir(env: Env): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'hub');
  return join(tmpdir(), `hub-${process.getuid?.() ?? 'user'}`);
}

/** The socket of the daemon of one build: a daemon never answers a client of another build. */
export function daemonSocket(env: Env, build: string): string {
  return join(daemonDir(env), `daemon-${build}.sock`);
}

/** The log file of a background daemon of one build, beside its socket. */
export function daemonLog(env: Env, build: string): string {
  return join(daemonDir(env), `daemon-${build}.log`);
}

/** Sockets of every build's daemon in the folder (a folder that is not private lists none). */
export function daemonSockets(env: Env): string[] {
  const dir = daemonDir(env);
  if (!isPrivateDir(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^daemon-[A-Za-z0-9]+\.sock$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Whether forwarding is possible at all: a bundled build (not sources), on a platform with Unix sockets. */
export function daemonUsable(env: Env, build: string): boolean {
  return build !== 'dev' && env.HUB_DAEMON !== 'off' && process.platform !== 'win32';
}

/**
 * True when `dir` is a real folder of this user that nobody else may enter: a socket anybody could reach, or
 * one planted by another user in a shared temp dir, is never used.
 */
export function isPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Creates the socket folder (0700) when missing; false when it exists but is not private (see isPrivateDir). */
export function ensurePrivateDir(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return isPrivateDir(dir);
}
