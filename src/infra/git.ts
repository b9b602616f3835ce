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
  /** Variables added to the environment (given or inherited), e.g. GIT_ALLOW_PROTOCOL for clones and fetches. */
  extraEnv?: Readonly<Record<string, string>>;
}

/**
 * Settings every git hub runs gets with command-line precedence (through GIT_CONFIG_COUNT, so `git for-each-repo`
 * children inherit them). A workspace folder is not trusted: its `.git` may point at a git dir the workspace ships,
 * whose config names a command (core.fsmonitor runs on every `status`), or the folder may be a bare repository
 * planted in a checkout. hub never needs either.
 */
const SAFE_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['safe.bareRepository', 'explicit'],
];

/** `env` with SAFE_GIT_CONFIG appended to whatever GIT_CONFIG_* entries it already carries. */
export function safeGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const given = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  const base = Number.isSafeInteger(given) && given > 0 ? given : 0;
  const out: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(base + SAFE_GIT_CONFIG.length) };
  SAFE_GIT_CONFIG.forEach(([k, v], i) => {
    out[`GIT_CONFIG_KEY_${base + i}`] = k;
    out[`GIT_CONFIG_VALUE_${base + i}`] = v;
  });
  return out;
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
        env: safeGitEnv({
          // biome-ignore lint/style/noProcessEnv: the git runner is an edge; it inherits the environment unless given one.
          ...(opts.env ?? process.env),
          ...opts.extraEnv,
          GIT_TERMINAL_PROMPT: '0',
          GIT_OPTIONAL_LOCKS: '0',
          LC_ALL: 'C',
        }),
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolvePromise({ stdout, stderr, code });
      },
    );
  });
}
