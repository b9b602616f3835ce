import { resolve } from 'node:path';
import * as z from 'zod';
import { resolveRepository } from '../acl/index.js';
import { readFileBounded, ValidationError } from '../infra/index.js';
import {
  closeRun,
  EXPORT_FORMATS,
  exportRuns,
  MAX_RUN_PAGE,
  openRun,
  pageRuns,
  RUN_LIMITS,
  RUN_OUTCOMES,
  type RunExport,
  type RunPage,
  type RunRecord,
  replayRun,
  showRun,
  TIERS,
} from '../runs/index.js';
import { repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const OPEN_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/runs', input: 'body' };
const LIST_ROUTE: HttpBinding = { method: 'GET', route: '/v3/ops/runs', input: 'query' };
const EXPORT_ROUTE: HttpBinding = { method: 'GET', route: '/v3/ops/runs/export', input: 'query' };
const SHOW_ROUTE: HttpBinding = { method: 'GET', route: '/v3/ops/runs/{id}', input: 'query' };
const CLOSE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/runs/{id}/close', input: 'body' };
const REPLAY_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/runs/{id}/replay', input: 'body' };

const text = (d: string) => z.string().optional().describe(d);
const idField = z.string().min(1).describe('Run id (run-<time>-<hex>).');

/** Filters `run list` and `run export` share. */
const filterFields = {
  actor: text('Only runs of this agent.'),
  class: text('Only runs of this request class.'),
  outcome: z
    .enum(RUN_OUTCOMES)
    .optional()
    .describe(`Only runs closed with this outcome: ${RUN_OUTCOMES.join(', ')}.`),
  open: z.boolean().optional().describe('Only open runs (false: only closed runs).'),
  task_id: text('Only runs of this task.'),
  graph_id: text('Only runs of this task graph.'),
  repository: text('Only runs in this repository (project/repo as recorded).'),
};

const runLine = (r: RunRecord) =>
  `${r.run_id} [${r.status}${r.outcome ? ` ${r.outcome}` : ''}] ${r.actor}${r.class ? ` ${r.class}` : ''}${r.task_id ? ` task ${r.task_id}` : ''}`;

/**
 * Reads `--evidence-file`: a regular file (never a FIFO, device or socket) of at most the evidence limit. On the
 * CLI the user named the path and may read what they can read; over MCP and HTTP its real path must lie inside
 * the workspace (the notes_file rule), so a remote caller cannot read arbitrary files through a symlink.
 */
export function readEvidenceFile(ctx: OpContext, path: string): string {
  const bytes = readFileBounded(resolve(ctx.cwd, path), {
    maxBytes: RUN_LIMITS.evidence_bytes,
    root: ctx.readStdin ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'evidence_file',
    shown: path,
  });
  return bytes.toString('utf8');
}

export const runOpen = defineOp({
  id: 'run.open',
  summary:
    'Open a run in the ledger: who works on which class, task, repository and branch; prints the run id.',
  description:
    'Tier and lane default from the class (which must exist: route add). The id sorts by time. Free text is ' +
    'stored with secrets masked. Event RunOpened (source run).',
  input: z.strictObject({
    actor: z.string().min(1).describe('Agent running it (letters, digits, ., _ and -).'),
    class: text('Request class id (route list).'),
    task_id: text('Task (node) the run works on.'),
    graph_id: text('Task graph of the task.'),
    repository: text('Repository: project/repo, or . (also self) for the repository holding the manifest.'),
    branch: text('Branch the run works on.'),
    objective: text('What the run is for (free text).'),
    tier: z
      .enum(TIERS)
      .optional()
      .describe(`Tier (default: the class's): ${TIERS.join(', ')}.`),
    lane: text("Lane (default: the class's)."),
    session_id: text("The agent's session id."),
    workdir: text('Folder the run works in (recorded, not read).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ run: RunRecord }> => {
    const repository =
      input.repository === undefined
        ? undefined
        : (await resolveRepository(repoDeps(ctx), input.repository)).id;
    const body = { ...input, repository };
    return applyWhereStored(ctx, OPEN_ROUTE, body, (deps) => openRun(deps, body));
  },
  cli: { command: 'run open', human: (r) => r.run.run_id },
  mcp: { tool: 'hub_run_open' },
  http: [OPEN_ROUTE],
});

export const runClose = defineOp({
  id: 'run.close',
  summary:
    'Close an open run with its outcome, MR URL, gates and evidence (secrets masked); closing twice is refused.',
  description:
    `Outcomes: ${RUN_OUTCOMES.join(', ')}. --gate name=pass|fail repeats. --evidence-file is read whole (a ` +
    `regular file of at most ${RUN_LIMITS.evidence_bytes} bytes; over MCP and HTTP inside the workspace). Of two ` +
    'closers racing, one wins and the other gets 409 naming the outcome. Event RunClosed.',
  input: z.strictObject({
    id: idField,
    outcome: z.enum(RUN_OUTCOMES).describe(`How it ended: ${RUN_OUTCOMES.join(', ')}.`),
    mr_url: text('Merge/pull request URL (http or https).'),
    gate: z.array(z.string()).optional().describe('A gate result, name=pass or name=fail.'),
    evidence: text('Evidence text (instead of --evidence-file).'),
    evidence_file: text('File whose text is the evidence (a log, a transcript).'),
    note: text('Note on the outcome.'),
    by: text('Who closes it (an agent id).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ run: RunRecord }> => {
    const { evidence_file, ...rest } = input;
    if (evidence_file !== undefined && rest.evidence !== undefined)
      throw new ValidationError('evidence: give evidence or evidence_file, not both', {
        field: 'evidence',
        rule: 'one_of_evidence_or_evidence_file',
      });
    // Read here (the client), sent as text: a state server never reads a client's files.
    const body = {
      ...rest,
      evidence: evidence_file === undefined ? rest.evidence : readEvidenceFile(ctx, evidence_file),
    };
    return applyWhereStored(ctx, CLOSE_ROUTE, body, (deps) =>
      closeRun(deps, { ...body, run_id: body.id, gates: body.gate }),
    );
  },
  cli: { command: 'run close', human: (r) => runLine(r.run) },
  mcp: { tool: 'hub_run_close' },
  http: [CLOSE_ROUTE],
});

export const runList = defineOp({
  id: 'run.list',
  summary:
    'List runs newest first, filtered by actor, class, outcome, open, task; paged by --limit and --cursor.',
  description:
    'Pass next_cursor back as --cursor for the next (older) page; next_cursor is null on the last page.',
  input: z.strictObject({
    ...filterFields,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_RUN_PAGE)
      .optional()
      .describe(`Runs per page (default 100, at most ${MAX_RUN_PAGE}).`),
    cursor: text('Run id: list runs older than it (next_cursor of the last page).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<RunPage> => {
    const { limit, cursor, ...filter } = input;
    return applyWhereStored(ctx, LIST_ROUTE, input, (deps) => pageRuns(deps, filter, { limit, cursor }));
  },
  cli: {
    command: 'run list',
    human: (r) =>
      r.runs.length === 0
        ? 'no runs'
        : [
            table(
              r.runs.map((x) => [
                x.run_id,
                x.status,
                x.outcome ?? '-',
                x.actor,
                x.class ?? '-',
                x.task_id ?? '-',
              ]),
              ['RUN', 'STATUS', 'OUTCOME', 'ACTOR', 'CLASS', 'TASK'],
            ),
            r.next_cursor ? `next page: --cursor ${r.next_cursor}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
  },
  mcp: { tool: 'hub_run_list' },
  http: [LIST_ROUTE],
});

export const runShow = defineOp({
  id: 'run.show',
  summary: 'Show one run with its dispatch, outcome, gates and evidence (secrets masked).',
  input: z.strictObject({ id: idField }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<{ run: RunRecord }> => showRun(coordDeps(ctx), input.id),
  cli: { command: 'run show', human: (r) => JSON.stringify(r.run, null, 2) },
  mcp: { tool: 'hub_run_show' },
  http: [SHOW_ROUTE],
});

export const runReplay = defineOp({
  id: 'run.replay',
  summary:
    "Re-issue a run's dispatch as a new open run linked replay_of (for --actor, default the same actor).",
  description: 'Copies class, task, graph, repository, branch, objective, tier and lane. Event RunReplayed.',
  input: z.strictObject({
    id: idField,
    actor: text('Agent of the new run (default: the original actor).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ run: RunRecord; replay_of: string }> =>
    applyWhereStored(ctx, REPLAY_ROUTE, input, (deps) =>
      replayRun(deps, { run_id: input.id, actor: input.actor }),
    ),
  cli: { command: 'run replay', human: (r) => `${r.run.run_id} (replay of ${r.replay_of})` },
  mcp: { tool: 'hub_run_replay' },
  http: [REPLAY_ROUTE],
});

export const runExport = defineOp({
  id: 'run.export',
  summary: 'Export runs (one by --id, or filtered) as json or jsonl, oldest first, with every secret masked.',
  description:
    'Masks tokens (GitHub, GitLab, Slack, AWS, OpenAI, Stripe, Google, npm, JWT...), URL credentials, ' +
    'Authorization headers, PEM private keys and KEY=value lines of secret names, in every field.',
  input: z.strictObject({
    id: text('One run id (instead of filters).'),
    ...filterFields,
    format: z
      .enum(EXPORT_FORMATS)
      .optional()
      .describe('json (default: {runs:[...]}) or jsonl (one run per line).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<RunExport> => {
    const { id, ...filter } = input;
    return applyWhereStored(ctx, EXPORT_ROUTE, input, (deps) => exportRuns(deps, { ...filter, run_id: id }));
  },
  cli: {
    command: 'run export',
    human: (r) => (r.format === 'jsonl' ? r.text.trimEnd() : JSON.stringify(r.runs, null, 2)),
  },
  mcp: { tool: 'hub_run_export' },
  http: [EXPORT_ROUTE],
});
