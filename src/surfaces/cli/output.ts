import { errorMapping, toHubError } from '../../infra/index.js';
import { type CliIo, processIo } from './cli-io.js';

/** Writes to stdout and resolves once flushed, so exit codes never cut output short. */
export function writeOut(text: string): Promise<void> {
  return processIo().out(text);
}

export function writeErr(text: string): void {
  processIo().err(text);
}

/** Prints an error the one way every command does; returns the exit code. */
export async function reportError(
  err: unknown,
  json: boolean,
  debug: boolean,
  io: CliIo = processIo(),
): Promise<number> {
  const m = errorMapping(err);
  if (json) await io.out(JSON.stringify(m.body));
  else {
    io.err(`error: ${m.body.error.message}`);
    const issues = (m.body.error.details as { issues?: Array<Record<string, unknown>> } | undefined)?.issues;
    if (Array.isArray(issues) && issues.length > 1) {
      for (const i of issues.slice(0, 50)) {
        const where = i.line ? `line ${i.line}: ` : '';
        io.err(`  - ${where}${i.path ?? i.field ?? ''}: ${i.message}`);
      }
    }
  }
  if (debug) {
    const e = toHubError(err);
    if (e.stack) io.err(e.stack);
  }
  return m.exit;
}
