import type { CommandEntry } from '../../ops/index.js';
import { type CliIo, processIo } from './cli-io.js';
import { commandTable } from './command-table.js';
import { fastParse } from './fast-parse.js';
import { mcpServeArgs } from './mcp-serve-fast.js';
import { runCommand } from './run-command.js';

/**
 * Runs a plain command line (see fastParse) with `io`; undefined, before anything runs, when commander must
 * take it (help, version, serve commands, usage errors) or when the command reads stdin and `stdin` is false.
 * `onStart` is awaited once the command is accepted, before its operation starts.
 */
export async function runFast(
  entries: CommandEntry[],
  argv: string[],
  io: CliIo,
  opts: {
    stdin?: boolean;
    /** false: decline a command that streams until Ctrl-C (the daemon cannot see the reader's Ctrl-C). */
    streams?: boolean;
    onStart?: () => Promise<void>;
    onDecline?: (reason: 'commander' | 'stdin' | 'stream') => void;
  } = {},
): Promise<number | undefined> {
  const fast = fastParse(entries, argv);
  if (!fast) {
    opts.onDecline?.('commander');
    return undefined;
  }
  if (fast.entry.stdinJson && opts.stdin === false) {
    opts.onDecline?.('stdin');
    return undefined;
  }
  if (fast.entry.stream && opts.streams === false) {
    opts.onDecline?.('stream');
    return undefined;
  }
  await opts.onStart?.();
  return await runCommand(fast.entry, fast.input, fast.globals, io.env.HUB_DEBUG === '1', io);
}

/**
 * The CLI entry point: the only place that sets the exit code. A plain command line (and a plain `mcp serve`) is
 * parsed without commander; help, version, the other serve commands and every usage error go through commander.
 */
export async function main(argv: string[]): Promise<number> {
  const serve = mcpServeArgs(argv);
  if (serve) {
    const { serveMcpCommand } = await import('./mcp-serve-command.js');
    try {
      await serveMcpCommand(serve);
      return 0;
    } catch (err) {
      const { reportError } = await import('./output.js');
      return await reportError(err, false, process.env.HUB_DEBUG === '1');
    }
  }
  const io = processIo();
  const entries = await commandTable();
  const code = await runFast(entries, argv, io);
  if (code !== undefined) return code;
  const { mainWithCommander } = await import('./commander-main.js');
  return await mainWithCommander(entries, argv, io.env.HUB_DEBUG === '1');
}
