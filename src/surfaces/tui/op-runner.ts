import { type CommandEntry, createContext, invoke, loadOperation } from '../../ops/index.js';
import { commandTable } from '../cli/command-table.js';
import type { GlobalOptions } from '../cli/option-value.js';
import { barProgress } from '../cli/progress.js';

/** An operation's result and how the CLI would print it. */
export interface OpOutcome<T = unknown> {
  result: T;
  /** The CLI's human rendering (`--json` off), or the result as indented JSON when it has none. */
  text: string;
  /** The exit code the CLI would give (a check that finds problems: 1). */
  exit: number;
}

export interface OpRunner {
  /** `appconfig`: the application config file to use instead of the global option's (as --appconfig). */
  run<T = unknown>(
    id: string,
    input?: Record<string, unknown>,
    opts?: { appconfig?: string },
  ): Promise<OpOutcome<T>>;
}

/**
 * Runs registry operations in this process, as the CLI would with the same global options: the same input
 * validation, gate and handler (`invoke`), never a `hub` child process. A fresh context per call, so each
 * reads the manifest and the application config as they are now (the wizard may just have changed one).
 */
export async function createOpRunner(
  globals: GlobalOptions,
  io: { cwd: string; env: Readonly<Record<string, string | undefined>>; log: (line: string) => void },
): Promise<OpRunner> {
  const entries = new Map<string, CommandEntry>();
  for (const e of await commandTable()) if (!e.alias_of) entries.set(e.id, e);
  return {
    async run<T>(id: string, input: Record<string, unknown> = {}, opts: { appconfig?: string } = {}) {
      const entry = entries.get(id);
      if (!entry) throw new Error(`no operation ${id} in this build's command table; rebuild hub`);
      const op = await loadOperation(entry.module, entry.id);
      const ctx = createContext({
        cwd: io.cwd,
        env: io.env,
        definition: globals.configPath ?? globals.definition,
        appconfig: opts.appconfig ?? globals.appconfig,
        log: io.log,
        progress: barProgress(process.stderr),
      });
      const result = (await invoke(op, ctx, input)) as T;
      const text = op.cli?.human ? op.cli.human(result) : JSON.stringify(result, null, 2);
      return { result, text, exit: op.cli?.exitCode?.(result) ?? 0 };
    },
  };
}
