import { didYouMean, suggestionText } from '../catalog/index.js';
import { type CoordDeps, readDoc } from '../coord/index.js';
import { HubError, NotFoundError, ValidationError } from '../infra/index.js';
import { redactDeep } from './redact-text.js';
import {
  checkRunId,
  RUN_ID_RE,
  RUN_OUTCOMES,
  RUNS_COLLECTION,
  RunDocSchema,
  type RunOutcome,
  type RunRecord,
  runDocument,
} from './run-schema.js';

/** Which runs a listing keeps; every field given must match. */
export interface RunFilter {
  /** true: only open runs; false: only closed runs. */
  open?: boolean;
  actor?: string;
  class?: string;
  outcome?: RunOutcome;
  task_id?: string;
  graph_id?: string;
  repository?: string;
}

export const DEFAULT_RUN_PAGE = 100;
export const MAX_RUN_PAGE = 1000;

/** Every run id of the ledger, oldest first (ids sort by opening time). Documents of other shapes are skipped. */
export async function runIds(deps: Pick<CoordDeps, 'store'>): Promise<string[]> {
  if (!deps.store.list)
    throw new HubError('internal', `the ${deps.store.backend} state backend cannot list documents`, {
      backend: deps.store.backend,
    });
  const prefix = `${RUNS_COLLECTION}/`;
  return (await deps.store.list(RUNS_COLLECTION))
    .map((n) => n.slice(prefix.length))
    .filter((id) => RUN_ID_RE.test(id))
    .sort();
}

/** One run as stored, or undefined when there is none. */
export async function readRun(deps: CoordDeps, runId: string): Promise<RunRecord | undefined> {
  return (await readDoc(deps, runDocument(checkRunId(runId)), RunDocSchema)).run;
}

/** The error of an unknown run id, with the closest ids of the ledger. */
export async function runNotFound(deps: CoordDeps, runId: string, field = 'run_id'): Promise<NotFoundError> {
  const suggestions = didYouMean(runId, await runIds(deps));
  return new NotFoundError(`${field}: no run '${runId}'${suggestionText(suggestions)}`, {
    field,
    value: runId,
    rule: 'known_run',
    suggestions,
  });
}

/** A run by id (secrets masked for display); an unknown id is a NotFoundError with did-you-mean. */
export async function showRun(deps: CoordDeps, runId: string): Promise<{ run: RunRecord }> {
  const run = await readRun(deps, runId);
  if (!run) throw await runNotFound(deps, runId);
  return { run: redactDeep(run) };
}

export function checkRunFilter(filter: RunFilter): RunFilter {
  if (filter.outcome !== undefined && !RUN_OUTCOMES.includes(filter.outcome))
    throw new ValidationError(
      `outcome: '${String(filter.outcome)}' is not a run outcome (${RUN_OUTCOMES.join(', ')})`,
      { field: 'outcome', value: filter.outcome, rule: RUN_OUTCOMES.join('|') },
    );
  return filter;
}

/** True when `run` passes every condition of `filter`. */
export function runMatches(run: RunRecord, filter: RunFilter): boolean {
  if (filter.open !== undefined && (run.status === 'open') !== filter.open) return false;
  if (filter.actor !== undefined && run.actor !== filter.actor) return false;
  if (filter.class !== undefined && run.class !== filter.class) return false;
  if (filter.outcome !== undefined && run.outcome !== filter.outcome) return false;
  if (filter.task_id !== undefined && run.task_id !== filter.task_id) return false;
  if (filter.graph_id !== undefined && run.graph_id !== filter.graph_id) return false;
  if (filter.repository !== undefined && run.repository !== filter.repository) return false;
  return true;
}

/**
 * Runs of the ledger that pass `filter`, newest first, as stored (free text was redacted when it was written).
 * What `aos` reads: `listRuns(deps, {open: true})` are the runs still going.
 */
export async function listRuns(deps: CoordDeps, filter: RunFilter = {}): Promise<RunRecord[]> {
  checkRunFilter(filter);
  const out: RunRecord[] = [];
  for (const id of (await runIds(deps)).reverse()) {
    const run = (await readDoc(deps, runDocument(id), RunDocSchema)).run;
    if (run && runMatches(run, filter)) out.push(run);
  }
  return out;
}

export interface RunPage {
  runs: RunRecord[];
  count: number;
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/**
 * One page of `listRuns`, newest first: runs older than `cursor` (a run id, exclusive), at most `limit`. Reads
 * only as many documents as the page needs (plus one, to tell whether another page follows), so the newest runs
 * of a long ledger come back at the cost of the page, not of the ledger.
 */
export async function pageRuns(
  deps: CoordDeps,
  filter: RunFilter,
  page: { limit?: number; cursor?: string } = {},
): Promise<RunPage> {
  checkRunFilter(filter);
  const limit = page.limit ?? DEFAULT_RUN_PAGE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RUN_PAGE)
    throw new ValidationError(`limit: ${limit} is not an integer from 1 to ${MAX_RUN_PAGE}`, {
      field: 'limit',
      value: limit,
      rule: `1..${MAX_RUN_PAGE}`,
    });
  const cursor = page.cursor === undefined ? undefined : checkRunId(page.cursor, 'cursor');
  const ids = (await runIds(deps)).filter((id) => cursor === undefined || id < cursor).reverse();
  const runs: RunRecord[] = [];
  let more = false;
  let last: string | null = null;
  for (const id of ids) {
    const run = (await readDoc(deps, runDocument(id), RunDocSchema)).run;
    if (!run || !runMatches(run, filter)) continue;
    if (runs.length === limit) {
      more = true;
      break;
    }
    runs.push(redactDeep(run));
    last = id;
  }
  return { runs, count: runs.length, next_cursor: more ? last : null };
}
