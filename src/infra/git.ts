import { childProcess } from './child-process.js';

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  cwd: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Runs git without a shell, without prompts and with a timeout; never throws for a non-zero exit. */
export function runGit(args: string[], opts: GitOptions): Promise<GitResult> {
  return new Promise((resolvePromise) => {
    childProcess().execFile(
      'git',
      args,
      {
        cwd: opts.cwd,
        timeout: opts.timeoutMs ?? 30_000,
        maxBuffer: 64 * 1024 * 1024,
        // biome-ignore lint/style/noProcessEnv: the git runner is an edge; it inherits the environment unless given one.
        env: { ...(opts.env ?? process.env), GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolvePromise({ stdout, stderr, code });
      },
    );
  });
}
