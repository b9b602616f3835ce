import { errorMapping, toHubError } from '../../infra/index.js';

/** Writes to stdout and resolves once flushed, so exit codes never cut output short. */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (text === '') return resolve();
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve());
  });
}

export function writeErr(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints an error the one way every command does; returns the exit code. */
export async function reportError(err: unknown, json: boolean, debug: boolean): Promise<number> {
  const m = errorMapping(err);
  if (json) await writeOut(JSON.stringify(m.body));
  else {
    writeErr(`error: ${m.body.error.message}`);
    const issues = (m.body.error.details as { issues?: Array<Record<string, unknown>> } | undefined)?.issues;
    if (Array.isArray(issues) && issues.length > 1) {
      for (const i of issues.slice(0, 50)) {
        const where = i.line ? `line ${i.line}: ` : '';
        writeErr(`  - ${where}${i.path ?? i.field ?? ''}: ${i.message}`);
      }
    }
  }
  if (debug) {
    const e = toHubError(err);
    if (e.stack) writeErr(e.stack);
  }
  return m.exit;
}
