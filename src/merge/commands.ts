import type { ChildProcess } from 'node:child_process';
// The parser alone: the package's index.d.ts augments Array#join globally, which this project does not want.
import parseShell from 'shell-quote/parse.js';
import { childProcess, ValidationError } from '../infra/index.js';
import { redactUrlSecrets } from '../model/index.js';
import type { CommandRun } from './records.js';

/** A command as the config gives it: an argv list, or a string split into words without a shell. */
export type CommandSpec = string | readonly string[];

/** Output kept per stream of one command (its tail): enough to read a failure, bounded in the stored record. */
export const OUTPUT_KEPT = 8 * 1024;
/** Bytes read per stream before older output is dropped (the tail is what matters). */
const OUTPUT_BUFFERED = 64 * 1024;

const VAR = Symbol('variable');

/**
 * The argv of a configured command. A list is taken as written; a string is split into words as a POSIX shell
 * would (quotes and backslashes), but nothing a shell would do beyond that is done or pretended: an operator
 * (`&&`, `|`, `;`, `>`...), a `$VAR` expansion or a comment is refused, naming the config key. A glob stays a
 * literal word (no shell expands it; the program may).
 */
export function commandArgv(spec: CommandSpec, field: string): string[] {
  const refuse = (why: string) =>
    new ValidationError(
      `${field}: '${String(spec).slice(0, 200)}' ${why}; hub runs commands without a shell (write an argv list, or put the shell logic in a script)`,
      { field, value: String(spec).slice(0, 200), rule: 'argv_without_shell' },
    );
  if (typeof spec !== 'string') {
    if (spec.length === 0 || !spec[0]) throw refuse('needs a program');
    return [...spec];
  }
  const out: string[] = [];
  for (const token of parseShell(spec, () => ({ [VAR]: true }) as object)) {
    if (typeof token === 'string') out.push(token);
    else if ('op' in token && token.op === 'glob') out.push(token.pattern);
    else if ('op' in token) throw refuse(`uses the shell operator '${token.op}'`);
    else if ('comment' in token) throw refuse('has a shell comment');
    else throw refuse('expands a $variable');
  }
  if (out.length === 0 || !out[0]) throw refuse('needs a program');
  return out;
}

/** Environment variable names whose values are secrets (tokens, keys, passwords, credentials). */
const SECRET_ENV_RE =
  /token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth/i;
/** Shorter values are left alone: masking `1` or `true` everywhere would garble output and hide nothing. */
const MIN_SECRET_LENGTH = 6;

/** Masks the values of secret-named environment variables and URL credentials in command output. */
export function redactOutput(text: string, env: Readonly<Record<string, string | undefined>>): string {
  let out = redactUrlSecrets(text);
  for (const [name, value] of Object.entries(env))
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_ENV_RE.test(name))
      out = out.split(value).join(`***${name}***`);
  return out;
}

export interface RunOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutMs: number;
  name?: string;
}

/**
 * Runs one command without a shell in its own process group, so a timeout ends the whole tree (a test runner's
 * workers too). Its exit and the redacted tail of its output are returned, never thrown; a program that cannot
 * start exits 127, as a shell would say.
 */
export function runCommand(argv: readonly string[], opts: RunOptions): Promise<CommandRun> {
  return new Promise((done) => {
    const streams = { stdout: '', stderr: '' };
    const keep = (which: 'stdout' | 'stderr', chunk: string) => {
      const s = streams[which] + chunk;
      streams[which] = s.length > OUTPUT_BUFFERED ? s.slice(-OUTPUT_BUFFERED) : s;
    };
    let timedOut = false;
    let child: ChildProcess | undefined;
    let ended = false;
    const finish = (exit: number | null, signal: string | null) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      const tail = (s: string) => {
        const r = redactOutput(s, opts.env);
        return r.length > OUTPUT_KEPT ? r.slice(-OUTPUT_KEPT) : r;
      };
      done({
        ...(opts.name ? { name: opts.name } : {}),
        argv: [...argv],
        exit_code: exit,
        signal,
        timed_out: timedOut,
        stdout: tail(streams.stdout),
        stderr: tail(streams.stderr),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, opts.timeoutMs);
    try {
      child = childProcess().spawn(argv[0]!, argv.slice(1), {
        cwd: opts.cwd,
        env: opts.env as NodeJS.ProcessEnv,
        shell: false,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      keep('stderr', (err as Error).message);
      finish(127, null);
      return;
    }
    child.stdout?.setEncoding('utf8').on('data', (c: string) => keep('stdout', c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => keep('stderr', c));
    child.once('error', (err) => {
      keep('stderr', `${err.message}\n`);
      finish(127, null);
    });
    child.once('close', (code, signal) => finish(code, signal));
  });
}

function killTree(child: ChildProcess | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
