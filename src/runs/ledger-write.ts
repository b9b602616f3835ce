import { checkAgentId, checkBranchName, checkTaskId, touchAgent } from '../acl/index.js';
import { type CoordDeps, updateDoc } from '../coord/index.js';
import { HubError, NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { redactUrlSecrets } from '../model/index.js';
import { findClass } from './classes.js';
import { recordRunEvent } from './events.js';
import { readRun, runNotFound } from './ledger-read.js';
import { redactText } from './redact-text.js';
import {
  checkRunId,
  DISPATCH_FIELDS,
  GATE_RESULTS,
  type Gate,
  newRunId,
  RUN_LIMITS,
  RUN_OUTCOMES,
  RunDocSchema,
  type RunOutcome,
  type RunRecord,
  runDocument,
  TIERS,
  type Tier,
} from './run-schema.js';
import { checkName, checkText } from './text-fields.js';

/** What `run open` records. `repository` is already resolved (`project/repo`) by the caller. */
export interface OpenRunInput {
  actor: string;
  class?: string;
  task_id?: string;
  graph_id?: string;
  repository?: string;
  branch?: string;
  objective?: string;
  tier?: Tier;
  lane?: string;
  session_id?: string;
  workdir?: string;
}

/** What `run close` records; `evidence` is the evidence text (the caller read the file). */
export interface CloseRunInput {
  run_id: string;
  outcome: RunOutcome;
  mr_url?: string;
  /** `name=pass|fail`, or parsed gates. */
  gates?: Array<string | Gate>;
  evidence?: string;
  note?: string;
  /** Who closes it (an agent id; `aos` closing a dead agent's run says so). */
  by?: string;
}

const redacted = (text: string | undefined) => (text === undefined ? undefined : redactText(text).text);

function checkTier(tier: string | undefined): Tier | undefined {
  if (tier !== undefined && !TIERS.includes(tier as Tier))
    throw new ValidationError(`tier: '${tier}' is not a tier (${TIERS.join(', ')})`, {
      field: 'tier',
      value: tier,
      rule: TIERS.join('|'),
    });
  return tier as Tier | undefined;
}

/** The dispatch fields of an open, checked; free text is stored with its secrets masked. */
async function dispatchOf(deps: CoordDeps, input: OpenRunInput): Promise<Partial<RunRecord>> {
  const cls = input.class === undefined ? undefined : await findClass(deps, input.class);
  const out: Partial<RunRecord> = {
    class: cls?.id,
    task_id: input.task_id === undefined ? undefined : checkTaskId(input.task_id),
    graph_id: input.graph_id === undefined ? undefined : checkTaskId(input.graph_id, 'graph_id'),
    repository: checkText(input.repository, 'repository', RUN_LIMITS.id_chars),
    branch: input.branch === undefined ? undefined : checkBranchName(input.branch, 'branch'),
    objective: redacted(checkText(input.objective, 'objective', RUN_LIMITS.text_chars)),
    // The class decides the tier and lane unless the opener says otherwise.
    tier: checkTier(input.tier) ?? cls?.tier,
    lane: checkName(input.lane, 'lane') ?? cls?.lane,
    session_id: checkText(input.session_id, 'session_id', RUN_LIMITS.id_chars),
    workdir: checkText(input.workdir, 'workdir', RUN_LIMITS.path_chars),
  };
  for (const k of Object.keys(out) as Array<keyof RunRecord>) if (out[k] === undefined) delete out[k];
  return out;
}

/** Writes a new run document (a fresh id never names a stored run; a clash is an internal error, not a merge). */
async function createRun(deps: CoordDeps, run: RunRecord): Promise<RunRecord> {
  return updateDoc(deps, runDocument(run.run_id), RunDocSchema, (doc) => {
    if (doc.run)
      throw new HubError('internal', `run id '${run.run_id}' is taken; open the run again`, {
        run_id: run.run_id,
      });
    doc.run = run;
    return run;
  });
}

/**
 * Opens a run: a new `runs/<run_id>` document with status `open`, its dispatch (class, task, repository, branch,
 * objective, tier and lane; tier and lane default from the class, which must exist), event `RunOpened`. The actor
 * is an agent acting, so the agents registry records it as seen.
 */
export async function openRun(deps: CoordDeps, input: OpenRunInput): Promise<{ run: RunRecord }> {
  const actor = checkAgentId(input.actor, 'actor');
  const now = deps.now();
  const run: RunRecord = {
    run_id: newRunId(now),
    status: 'open',
    actor,
    ...(await dispatchOf(deps, input)),
    opened_at: now.toISOString(),
    gates: [],
  };
  await createRun(deps, run);
  await touchAgent(deps, actor, { note: `run ${run.run_id}` });
  await recordRunEvent(deps, 'RunOpened', run.run_id, eventData(run));
  return { run };
}

/**
 * Re-issues a run's dispatch (class, task, repository, branch, objective, tier, lane) as a new open run linked by
 * `replay_of`, for `actor` (default: the original's), event `RunReplayed`. The original is not changed. The agents
 * registry is not touched: a replay is issued by someone else, often because the original actor died.
 */
export async function replayRun(
  deps: CoordDeps,
  input: { run_id: string; actor?: string },
): Promise<{ run: RunRecord; replay_of: string }> {
  const original = await readRun(deps, input.run_id);
  if (!original) throw await runNotFound(deps, input.run_id);
  const actor = checkAgentId(input.actor ?? original.actor, 'actor');
  const now = deps.now();
  const dispatch: Partial<RunRecord> = {};
  for (const k of DISPATCH_FIELDS)
    if (original[k] !== undefined) Object.assign(dispatch, { [k]: original[k] });
  const run: RunRecord = {
    run_id: newRunId(now),
    status: 'open',
    actor,
    ...dispatch,
    replay_of: original.run_id,
    opened_at: now.toISOString(),
    gates: [],
  };
  await createRun(deps, run);
  await recordRunEvent(deps, 'RunReplayed', run.run_id, eventData(run));
  return { run, replay_of: original.run_id };
}

/** `name=pass|fail` (or a parsed gate) checked; a later gate of the same name replaces an earlier one. */
export function parseGates(gates: ReadonlyArray<string | Gate>): Gate[] {
  if (gates.length > RUN_LIMITS.gates)
    throw new ValidationError(`gate: ${gates.length} gates; a run records at most ${RUN_LIMITS.gates}`, {
      field: 'gate',
      value: gates.length,
      rule: `max ${RUN_LIMITS.gates}`,
    });
  const byName = new Map<string, Gate>();
  for (const g of gates) {
    const [name, result] =
      typeof g === 'string'
        ? [g.slice(0, g.lastIndexOf('=')), g.slice(g.lastIndexOf('=') + 1)]
        : [g.name, g.result];
    if (typeof g === 'string' && !g.includes('='))
      throw new ValidationError(`gate: '${g.slice(0, 80)}' is not name=pass or name=fail`, {
        field: 'gate',
        value: g.slice(0, 200),
        rule: 'name=pass|fail',
      });
    checkName(name, 'gate');
    if (!GATE_RESULTS.includes(result as Gate['result']))
      throw new ValidationError(`gate: '${name}' has result '${result}'; a gate is pass or fail`, {
        field: 'gate',
        value: `${name}=${result}`,
        rule: 'name=pass|fail',
      });
    byName.set(name, { name, result: result as Gate['result'] });
  }
  return [...byName.values()];
}

function checkMrUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  checkText(url, 'mr_url', RUN_LIMITS.url_chars);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new ValidationError(`mr_url: '${redactUrlSecrets(url).slice(0, 200)}' is not an http(s) URL`, {
      field: 'mr_url',
      value: redactUrlSecrets(url).slice(0, 200),
      rule: 'http_url',
    });
  return redactUrlSecrets(url);
}

/** Evidence text as stored: bounded, secrets masked, with its size and how many secrets were masked. */
export function evidenceOf(text: string): NonNullable<RunRecord['evidence']> {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > RUN_LIMITS.evidence_bytes)
    throw new ValidationError(
      `evidence: ${bytes} bytes; evidence is at most ${RUN_LIMITS.evidence_bytes} bytes`,
      {
        field: 'evidence',
        value: bytes,
        rule: `max ${RUN_LIMITS.evidence_bytes} bytes`,
        limit: RUN_LIMITS.evidence_bytes,
      },
    );
  const r = redactText(text);
  return { text: r.text, bytes, redactions: r.redactions };
}

/**
 * Closes an open run with its outcome, merge request URL, gates, evidence (stored with secrets masked) and note,
 * atomically: of two closers racing, one closes it and the other is refused (409, naming the outcome it has).
 * What `aos` calls for a dead agent's run: `closeRun(deps, {run_id, outcome: 'abandoned', by: 'aos', note})`.
 */
export async function closeRun(deps: CoordDeps, input: CloseRunInput): Promise<{ run: RunRecord }> {
  const runId = checkRunId(input.run_id);
  if (!RUN_OUTCOMES.includes(input.outcome))
    throw new ValidationError(
      `outcome: '${String(input.outcome)}' is not a run outcome (${RUN_OUTCOMES.join(', ')})`,
      { field: 'outcome', value: input.outcome, rule: RUN_OUTCOMES.join('|') },
    );
  const fields: Partial<RunRecord> = {
    outcome: input.outcome,
    mr_url: checkMrUrl(input.mr_url),
    gates: parseGates(input.gates ?? []),
    evidence: input.evidence === undefined ? undefined : evidenceOf(input.evidence),
    note: redacted(checkText(input.note, 'note', RUN_LIMITS.text_chars)),
    closed_by: input.by === undefined ? undefined : checkAgentId(input.by, 'by'),
  };
  for (const k of Object.keys(fields) as Array<keyof RunRecord>)
    if (fields[k] === undefined) delete fields[k];
  const at = deps.now().toISOString();
  let run: RunRecord;
  try {
    run = await updateDoc(deps, runDocument(runId), RunDocSchema, (doc) => {
      const cur = doc.run;
      if (!cur) throw new NotFoundError(`run_id: no run '${runId}'`, { field: 'run_id', value: runId });
      if (cur.status !== 'open')
        throw new RefusedError(
          `run_id: run '${runId}' is already closed (${cur.outcome ?? 'no outcome'} at ${cur.closed_at ?? '?'})`,
          {
            field: 'run_id',
            value: runId,
            rule: 'run_closed',
            outcome: cur.outcome,
            closed_at: cur.closed_at,
            closed_by: cur.closed_by,
          },
          409,
        );
      const closed: RunRecord = { ...cur, ...fields, status: 'closed', closed_at: at };
      doc.run = closed;
      return closed;
    });
  } catch (err) {
    if (err instanceof NotFoundError) throw await runNotFound(deps, runId);
    throw err;
  }
  await recordRunEvent(deps, 'RunClosed', runId, {
    ...eventData(run),
    outcome: run.outcome,
    gates_passed: run.gates.filter((g) => g.result === 'pass').length,
    gates_failed: run.gates.filter((g) => g.result === 'fail').length,
    ...(run.closed_by ? { by: run.closed_by } : {}),
  });
  return { run };
}

/** What an event says of a run: who, which class and task, where; never evidence or notes. */
function eventData(run: RunRecord): Record<string, unknown> {
  const data: Record<string, unknown> = { run_id: run.run_id, actor: run.actor };
  for (const k of [
    'class',
    'task_id',
    'graph_id',
    'repository',
    'branch',
    'tier',
    'lane',
    'replay_of',
  ] as const)
    if (run[k] !== undefined) data[k] = run[k];
  return data;
}
