import { type GitResult, mapLimit, randomHex, runGit } from '../infra/index.js';

export interface BatchOptions {
  /** Chunks run at once. */
  parallel: number;
  /** Repositories per `git for-each-repo` process. */
  size: number;
  /** `-c` settings given to every git (for-each-repo passes them to the git it runs in each repository). */
  config?: readonly string[];
  extraEnv?: Readonly<Record<string, string>>;
  /** Per repository; a chunk gets this times its size. */
  timeoutMs?: number;
  /** Cuts a chunk's stdout into one record per repository; without it, success means empty records. */
  split?: (stdout: string) => string[] | undefined;
  /** Called as each chunk finishes, with the indexes of its repositories. */
  onChunk?: (indexes: number[], results: GitResult[]) => void;
}

/**
 * Runs one git command in many repositories through `git for-each-repo`, a chunk of repositories per process
 * (node forks slowly with a large heap; git forks cheaply). The repository list travels in a config key with a
 * random name, so no repository's own config can add a folder to it. A chunk that fails, or whose output does
 * not split into one record per repository, is run again one repository at a time, so each gets its own exit
 * code and stderr. Results keep the input order.
 */
export async function batchGit(
  roots: readonly string[],
  args: readonly string[],
  opts: BatchOptions,
): Promise<GitResult[]> {
  const out = new Array<GitResult>(roots.length);
  const chunks: number[][] = [];
  for (let i = 0; i < roots.length; i += opts.size)
    chunks.push(Array.from({ length: Math.min(opts.size, roots.length - i) }, (_, k) => i + k));
  const key = `hub.sync${randomHex(8)}`;
  const config = opts.config ?? [];
  const one = (i: number) =>
    runGit([...config, ...args], { cwd: roots[i]!, timeoutMs: opts.timeoutMs, extraEnv: opts.extraEnv });
  await mapLimit(chunks, opts.parallel, async (chunk) => {
    let results: GitResult[] | undefined;
    if (chunk.length > 1) {
      const list = chunk.flatMap((i) => ['-c', `${key}=${roots[i]}`]);
      const r = await runGit([...config, ...list, 'for-each-repo', `--config=${key}`, ...args], {
        cwd: roots[chunk[0]!]!,
        timeoutMs: opts.timeoutMs === undefined ? undefined : opts.timeoutMs * chunk.length,
        extraEnv: opts.extraEnv,
      });
      if (r.code === 0) {
        const records = opts.split ? opts.split(r.stdout) : chunk.map(() => '');
        if (records && records.length === chunk.length)
          results = records.map((stdout) => ({ stdout, stderr: '', code: 0 }));
      }
    }
    results ??= await Promise.all(chunk.map(one));
    chunk.forEach((i, k) => {
      out[i] = results[k]!;
    });
    opts.onChunk?.(chunk, results);
  });
  return out;
}
