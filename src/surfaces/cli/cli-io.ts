import { readStdin } from './stdin.js';

/**
 * Where one command runs and prints: this process's streams, or a daemon client's socket (the daemon runs a
 * forwarded command with the client's directory and environment, and sends its output back).
 */
export interface CliIo {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Writes data and resolves once it is flushed, so an exit code never cuts output short. */
  out(text: string): Promise<void>;
  /** Writes a log or error line. */
  err(text: string): void;
  readStdin(): Promise<string>;
  /** stderr is a terminal: long work draws a bar there instead of printing a line per unit. */
  tty?: boolean;
}

const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** This process's streams, directory and environment. */
export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    out: (text) =>
      new Promise((resolve) => {
        if (text === '') return resolve();
        process.stdout.write(line(text), () => resolve());
      }),
    err: (text) => void process.stderr.write(line(text)),
    readStdin,
    tty: Boolean(process.stderr.isTTY),
  };
}

/** An io that hands every write to `send`, for a command whose output travels elsewhere. */
export function forwardingIo(
  base: Pick<CliIo, 'cwd' | 'env' | 'readStdin'>,
  send: (stream: 'out' | 'err', text: string) => Promise<void>,
): CliIo {
  return {
    ...base,
    out: (text) => (text === '' ? Promise.resolve() : send('out', line(text))),
    err: (text) => void send('err', line(text)),
  };
}
