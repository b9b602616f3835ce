import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HUB_BIN } from './run-hub.js';

/** tmux is on this machine and CI's (HELPERS.md); where it is missing the terminal tests skip with one line. */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const POLL_MS = 50;
/** Bounded waits: at most this many polls of the screen (30 s), never a fixed sleep before an assertion. */
const MAX_POLLS = 600;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real terminal: `hub <args>` in a tmux session of its own (a private server socket, so no other tmux user is
 * touched), driven with send-keys and read with capture-pane. The pane stays after hub exits, so its exit status
 * can be read.
 */
export class HubTerminal {
  readonly dir: string;
  private readonly socket: string;
  private readonly target = 'hub:0.0';
  private readonly exitFile: string;

  constructor(opts: { cwd: string; args: string[]; env?: Record<string, string>; command?: string[] }) {
    this.dir = mkdtempSync(join(tmpdir(), 'hub-tmux-'));
    this.socket = join(this.dir, 'tmux.sock');
    const conf = join(this.dir, 'tmux.conf');
    writeFileSync(conf, 'set -g remain-on-exit on\nset -g status off\nset -g history-limit 2000\n');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      HUB_CACHE_DIR: 'off',
      HUB_DAEMON: 'off',
      HUB_AGENT_MODE: '',
      NO_COLOR: '1',
      ...opts.env,
    };
    delete env.TMUX;
    // A test-only shell records the exit status: tmux may mark the pane dead (its terminal closed) without ever
    // recording the status of the process, when the terminal closes before the process is reaped.
    this.exitFile = join(this.dir, 'exit-status');
    const command = [
      'sh',
      '-c',
      '"$@"; echo $? > "$0"',
      this.exitFile,
      ...(opts.command ?? [process.execPath, HUB_BIN, ...opts.args]),
    ];
    this.tmux(
      ['-f', conf, 'new-session', '-d', '-s', 'hub', '-x', '100', '-y', '32', '-c', opts.cwd, ...command],
      env,
    );
  }

  private tmux(args: string[], env?: Record<string, string>): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], {
      encoding: 'utf8',
      ...(env ? { env } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** What the screen shows now (wrapped lines joined): the prompt as it is, never an earlier frame. */
  screen(): string {
    return this.tmux(['capture-pane', '-p', '-J', '-t', this.target]);
  }

  /**
   * Everything printed, with the lines that scrolled off the screen: for output longer than the screen, and
   * after exit (tmux scrolls the screen to print "Pane is dead"). Old frames of a prompt may sit in it.
   */
  transcript(): string {
    return this.tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', this.target]);
  }

  /** Waits until the screen matches `pattern`; fails with the last screen after the bounded number of polls. */
  waitFor(pattern: RegExp | string): Promise<string> {
    return this.poll(pattern, () => this.screen());
  }

  /** Waits until anything printed (the transcript) matches `pattern`. */
  waitForOutput(pattern: RegExp | string): Promise<string> {
    return this.poll(pattern, () => this.transcript());
  }

  /**
   * Presses Enter on a search prompt until `next` shows. The prompt ignores Enter while it still ranks the last
   * keystroke (its list on screen is the previous one's), as a person sees nothing happen and presses again; Enter
   * is pressed again only while `still` (the prompt with its term) is on the screen and `next` is not, after a
   * bounded wait, so an Enter that was taken is never followed by a second one for the next prompt.
   */
  async enterUntil(still: string, next: RegExp | string): Promise<void> {
    const shows = (screen: string, p: RegExp | string) =>
      typeof p === 'string' ? screen.includes(p) : p.test(screen);
    this.keys('Enter');
    for (let i = 1; i <= MAX_POLLS; i++) {
      await pause(POLL_MS);
      const screen = this.screen();
      if (shows(screen, next)) return;
      if (i % 40 === 0 && shows(screen, still)) this.keys('Enter');
    }
    throw new Error(`the terminal never showed ${String(next)}; it shows:\n${this.screen()}`);
  }

  /** How many times `text` has been printed so far (the transcript). */
  printed(text: string): number {
    return this.transcript().split(text).length - 1;
  }

  /** Waits until `text` has been printed more than `times` times: a line a fast, long output may scroll off at once. */
  async waitForPrinted(text: string, times: number): Promise<void> {
    for (let i = 0; i < MAX_POLLS; i++) {
      if (this.printed(text) > times) return;
      await pause(POLL_MS);
    }
    throw new Error(
      `the terminal never printed ${JSON.stringify(text)} again; it shows:\n${this.transcript()}`,
    );
  }

  private async poll(pattern: RegExp | string, read: () => string): Promise<string> {
    let last = '';
    for (let i = 0; i < MAX_POLLS; i++) {
      last = read();
      if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
      await pause(POLL_MS);
    }
    throw new Error(`the terminal never showed ${String(pattern)}; it shows:\n${last}`);
  }

  /** Named keys (Enter, Escape, C-c, Down). */
  keys(...keys: string[]): void {
    this.tmux(['send-keys', '-t', this.target, ...keys]);
  }

  /** Literal text, as typed. */
  type(text: string): void {
    this.tmux(['send-keys', '-t', this.target, '-l', text]);
  }

  /** Waits for hub to exit and returns its exit status (bounded like waitFor; a signal gives 128 + its number). */
  async exitCode(): Promise<number> {
    for (let i = 0; i < MAX_POLLS; i++) {
      const status = existsSync(this.exitFile) ? readFileSync(this.exitFile, 'utf8').trim() : '';
      if (status !== '') return Number(status);
      await pause(POLL_MS);
    }
    throw new Error(`hub never exited; the terminal shows:\n${this.transcript()}`);
  }

  close(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // Already gone.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A recording editor: a script that appends each of its arguments, one a line, to `log`. */
export function recordingEditor(dir: string, log: string): string {
  const path = join(dir, 'record-editor.sh');
  writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\n`, { mode: 0o755 });
  return path;
}
