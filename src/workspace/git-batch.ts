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
 * chunks run in parallel. `split` cuts a chunk's output into one record per repository; a chunk whose output
 * does not split into exactly one record each (a repository failed and stopped the chunk, say) is run again
 * one repository at a time, so every repository gets its own exit code and stderr.
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
  const done = await mapLimit(
    chunks,
    opts.parallel ?? BATCH_PARALLEL,
    async (chunk): Promise<GitResult[]> => {
      if (chunk.length > 1) {
        const config = chunk.flatMap((r) => ['-c', `${CONFIG_KEY}=${r}`]);
        const r = await runGit([...config, 'for-each-repo', `--config=${CONFIG_KEY}`, ...args], {
          cwd: chunk[0]!,
        });
        const records = r.code === 0 ? split(r.stdout) : undefined;
        if (records && records.length === chunk.length) {
          report(chunk.length);
          return records.map((stdout) => ({ stdout, stderr: '', code: 0 }));
        }
      }
      const one = await Promise.all(chunk.map((root) => runGit(args, { cwd: root })));
      report(chunk.length);
      return one;
    },
  );
  return done.flat();
}
