import type { CoordDeps } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { listRuns, type RunFilter, readRun, runNotFound } from './ledger-read.js';
import { redactDeep } from './redact-text.js';
import type { RunRecord } from './run-schema.js';

export const EXPORT_FORMATS = ['json', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export type RunExport =
  | { format: 'json'; count: number; runs: RunRecord[] }
  /** One run per line (`text`), oldest first, for appending to a log or feeding a line-oriented tool. */
  | { format: 'jsonl'; count: number; text: string };

/**
 * Runs for export with every secret masked again (evidence, notes, URLs, keys named like secrets), whatever build
 * or tool wrote them: one run by id, or every run that passes `filter`, oldest first.
 */
export async function exportRuns(
  deps: CoordDeps,
  input: RunFilter & { run_id?: string; format?: ExportFormat },
): Promise<RunExport> {
  const { run_id, format = 'json', ...filter } = input;
  if (!EXPORT_FORMATS.includes(format))
    throw new ValidationError(`format: '${String(format)}' is not an export format (json, jsonl)`, {
      field: 'format',
      value: format,
      rule: EXPORT_FORMATS.join('|'),
    });
  let runs: RunRecord[];
  if (run_id !== undefined) {
    if (Object.values(filter).some((v) => v !== undefined))
      throw new ValidationError('run_id: give a run id or filters, not both', {
        field: 'run_id',
        rule: 'id_or_filters',
      });
    const run = await readRun(deps, run_id);
    if (!run) throw await runNotFound(deps, run_id);
    runs = [run];
  } else {
    runs = (await listRuns(deps, filter)).reverse();
  }
  const clean = runs.map((r) => redactDeep(r));
  if (format === 'jsonl')
    return { format, count: clean.length, text: clean.map((r) => `${JSON.stringify(r)}\n`).join('') };
  return { format, count: clean.length, runs: clean };
}
