import { errorMapping, scrubSecrets, toHubError } from '../../infra/index.js';
import { type CliIo, processIo } from './cli-io.js';

/** Writes to stdout and resolves once flushed, so exit codes never cut output short. */
export function writeOut(text: string): Promise<void> {
  return processIo().out(text);
}

export function writeErr(text: string): void {
  processIo().err(text);
}

/** Details worth a line of their own in human output, in this order, with their labels. */
const DETAIL_LINES: Array<[key: string, label: string]> = [
  ['candidates', 'candidates'],
  ['known_projects', 'known projects'],
  ['known_repos', 'known repositories'],
  ['repos', 'repositories'],
  ['fix', 'fix'],
  ['hint', 'hint'],
];

const LIST_LIMIT = 20;

function listText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const shown = value.slice(0, LIST_LIMIT).map(String).join(', ');
  return value.length > LIST_LIMIT ? `${shown}, ... (${value.length - LIST_LIMIT} more)` : shown;
}

/**
 * The error as a person reads it: the message, then each problem of `issues`, then the details that help
 * (the hint, known names, candidates), everything `--json` carries that is not already in the message.
 */
export function humanError(message: string, details: Record<string, unknown> | undefined): string[] {
  const lines = [`error: ${message}`];
  const issues = details?.issues;
  if (Array.isArray(issues)) {
    const list = issues as Array<Record<string, unknown>>;
    const onlyOneInMessage = list.length === 1 && message.includes(String(list[0]?.message ?? ''));
    if (!onlyOneInMessage) {
      for (const i of list.slice(0, 50)) {
        const where = i.line ? `line ${i.line}: ` : '';
        const at = i.path ?? i.field;
        lines.push(`  - ${where}${at ? `${String(at)}: ` : ''}${String(i.message ?? '')}`);
      }
      if (list.length > 50) lines.push(`  ... and ${list.length - 50} more`);
    }
  }
  for (const [key, label] of DETAIL_LINES) {
    const text = listText(details?.[key]);
    if (text && !message.includes(text)) lines.push(`${label}: ${text}`);
  }
  return lines;
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
  else for (const line of humanError(m.body.error.message, m.body.error.details)) io.err(line);
  if (debug) {
    const e = toHubError(err);
    if (e.stack) io.err(scrubSecrets(e.stack));
  }
  return m.exit;
}
