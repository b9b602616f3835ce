/**
 * One turn at a time per key within this process, in arrival order. Module-wide rather than per handle: several
 * handles on one log, folder or repository in one process (a server and its jobs, a bench's writers, a train's
 * rows) would otherwise race each other (for a lock file, for the next sequence, for git's worktree list), and one
 * that just finished would win again over one waiting in its back-off.
 */
const turns = new Map<string, Promise<unknown>>();

export async function inTurn<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = turns.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  turns.set(key, tail);
  try {
    return await run;
  } finally {
    if (turns.get(key) === tail) turns.delete(key);
  }
}
