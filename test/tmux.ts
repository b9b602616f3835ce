import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
    const command = opts.command ?? [process.execPath, HUB_BIN, ...opts.args];
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

  /** Waits for hub to exit and returns its exit status (bounded like waitFor). */
  async exitCode(): Promise<number> {
    for (let i = 0; i < MAX_POLLS; i++) {
      const [dead, status, signal] = this.tmux([
        'display',
        '-p',
        '-t',
        this.target,
        '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}',
      ])
        .trim()
        .split(':');
      // Killed by a signal: 128 + its number, as a shell reports it.
      // tmux may mark the pane dead a moment before it has the status: poll until one of them is there.
      if (dead === '1' && (status || signal)) return status ? Number(status) : 128 + Number(signal);
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
