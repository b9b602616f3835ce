import { type GitResult, mapLimit, runGit } from '../infra/index.js';

/** Repositories per `git for-each-repo` process. */
export const BATCH_SIZE = 25;
/** Batches run at once. */
export const BATCH_PARALLEL = 8;
const CONFIG_KEY = 'hub.batchrepo';

/** Splits output into records, each starting at a line that begins with `marker`. */
export function splitBefore(stdout: string, marker: string): string[] {
  return splitRecords(stdout, (line) => line.startsWith(marker));
}

/** Splits output into records, each starting at a line for which `starts` is true (text before the first is dropped). */
export function splitRecords(stdout: string, starts: (line: string) => boolean): string[] {
  const out: string[] = [];
  let cur: string[] | undefined;
  for (const line of stdout.split('\n')) {
    if (starts(line)) {
      if (cur) out.push(cur.join('\n'));
      cur = [line];
    } else cur?.push(line);
  }
  if (cur) out.push(cur.join('\n'));
  return out;
}

/**
 * Runs one git command in many repositories with few processes: each `git for-each-repo` runs it in a chunk
 * of repositories one after the other (git forks cheaply; a node process with a large heap does not), and
 * chunks run in parallel. `split` cuts a chunk's output into one record per repository. git stops a chunk at
 * the first repository that fails: the records before it are kept (all but the last, which may be cut short),
 * the next repository runs on its own (so it gets its own exit code and stderr), and the rest of the chunk goes
 * on in a new batch. A broken repository costs a couple of processes, never a rerun of its whole chunk.
 */
export async function runInRepos(
  roots: readonly string[],
  args: string[],
  split: (stdout: string) => string[] | undefined,
  opts: { parallel?: number; batchSize?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<GitResult[]> {
  const size = opts.batchSize ?? BATCH_SIZE;
  const chunks: string[][] = [];
  for (let i = 0; i < roots.length; i += size) chunks.push(roots.slice(i, i + size));
  let finished = 0;
  const report = (n: number) => {
    finished += n;
    opts.onProgress?.(finished, roots.length);
  };
  const runChunk = async (chunk: readonly string[]): Promise<GitResult[]> => {
    const out: GitResult[] = [];
    let rest = chunk;
    while (rest.length > 1) {
      const config = rest.flatMap((r) => ['-c', `${CONFIG_KEY}=${r}`]);
      const r = await runGit([...config, 'for-each-repo', `--config=${CONFIG_KEY}`, ...args], {
        cwd: rest[0]!,
      });
      const records = split(r.stdout) ?? [];
      if (r.code === 0 && records.length === rest.length) {
        out.push(...records.map((stdout) => ({ stdout, stderr: '', code: 0 })));
        return out;
      }
      // Output that does not split as expected although git succeeded: trust no record, run each on its own.
      if (r.code === 0)
        return [...out, ...(await Promise.all(rest.map((root) => runGit(args, { cwd: root }))))];
      const kept = Math.max(0, Math.min(records.length - 1, rest.length - 1));
      out.push(...records.slice(0, kept).map((stdout) => ({ stdout, stderr: '', code: 0 })));
      out.push(await runGit(args, { cwd: rest[kept]! }));
      rest = rest.slice(kept + 1);
    }
    if (rest.length === 1) out.push(await runGit(args, { cwd: rest[0]! }));
    return out;
  };
  const done = await mapLimit(chunks, opts.parallel ?? BATCH_PARALLEL, async (chunk) => {
    const results = await runChunk(chunk);
    report(chunk.length);
    return results;
  });
  return done.flat();
}
