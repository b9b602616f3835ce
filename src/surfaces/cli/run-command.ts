import { checkJsonBounds, INPUT_BOUNDS, ValidationError } from '../../infra/index.js';
import {
  type CommandEntry,
  createContext,
  invoke,
  isOpStream,
  loadOperation,
  type OpStream,
} from '../../ops/index.js';
import { type CliIo, processIo } from './cli-io.js';
import type { GlobalOptions } from './option-value.js';
import { reportError } from './output.js';

/** A JSON object piped on stdin, or {} when nothing is piped. */
async function stdinObject(io: CliIo): Promise<Record<string, unknown>> {
  const text = (await io.readStdin()).trim();
  if (text === '') return {};
  // Refused before parsing: the bound is on what is read, not only on what parses.
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > INPUT_BOUNDS.bytes)
    throw new ValidationError(
      `standard input is ${bytes} bytes: larger than the limit of ${INPUT_BOUNDS.bytes} bytes of JSON (max_bytes)`,
      { field: 'stdin', rule: 'max_bytes', limit: INPUT_BOUNDS.bytes },
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`standard input is not valid JSON: ${(err as Error).message}`, {
      field: 'stdin',
      rule: 'json',
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('standard input must be a JSON object', {
      field: 'stdin',
      rule: 'json_object',
    });
  }
  checkJsonBounds(value, INPUT_BOUNDS, 'standard input');
  return value as Record<string, unknown>;
}

/** Runs one command's operation with its parsed input and prints the result; returns the exit code. */
export async function runCommand(
  entry: CommandEntry,
  parsed: Record<string, unknown>,
  globals: GlobalOptions,
  debug: boolean,
  io: CliIo = processIo(),
): Promise<number> {
  const json = Boolean(globals.json);
  const ctx = createContext({
    cwd: io.cwd,
    env: io.env,
    definition: globals.configPath ?? globals.definition,
    appconfig: globals.appconfig,
    log: io.err,
    readStdin: io.readStdin,
  });
  try {
    const op = await loadOperation(entry.module, entry.id);
    const input = entry.stdinJson ? { ...(await stdinObject(io)), ...parsed } : parsed;
    const result = await invoke(op, ctx, input);
    if (isOpStream(result)) return await printStream(result, json, io);
    if (json || !op.cli?.human) await io.out(JSON.stringify(result, null, json ? undefined : 2));
    else await io.out(op.cli.human(result));
    return op.cli?.exitCode?.(result) ?? 0;
  } catch (err) {
    return await reportError(err, json, debug, io);
  }
}

/** Prints a stream's items as they come (one JSON line each with --json) until Ctrl-C or SIGTERM; exit 0. */
async function printStream(stream: OpStream<unknown>, json: boolean, io: CliIo): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    for await (const item of stream.open(stop.signal)) {
      await io.out(
        json
          ? JSON.stringify({ cursor: stream.cursor(item), ...asObject(stream.data(item)) })
          : stream.human(item),
      );
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const asObject = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
