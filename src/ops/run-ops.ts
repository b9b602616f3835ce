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
import { cliHelp } from './cli-help.js';
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
const idField = cliHelp(z.string().min(1), 'Run id (run-<time>-<hex>).');

/** Filters `run list` and `run export` share. */
const filterFields = {
  actor: cliHelp(z.string().optional(), 'Only runs of this agent.'),
  class: cliHelp(z.string().optional(), 'Only runs of this request class.'),
  outcome: cliHelp(z.enum(RUN_OUTCOMES).optional(), 'Only runs closed with this outcome.'),
  open: z.boolean().optional().describe('true: only open runs; false: only closed.'),
  task_id: cliHelp(z.string().optional(), 'Only runs of this task.'),
  graph_id: cliHelp(z.string().optional(), 'Only runs of this task graph.'),
  repository: cliHelp(text('project/repo.'), 'Only runs in this repository (project/repo as recorded).'),
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
  summary: 'Open a run in the ledger: who works on which class, task, repository and branch.',
  description:
    'Tier and lane default from the class (which must exist: route add). The id sorts by time. Free text is ' +
    'stored with secrets masked. Event RunOpened (source run).',
  input: z.strictObject({
    actor: cliHelp(z.string().min(1), 'Agent running it (letters, digits, ., _ and -).'),
    class: cliHelp(z.string().optional(), 'Request class id (route list).'),
    task_id: cliHelp(z.string().optional(), 'Task (node) the run works on.'),
    graph_id: cliHelp(z.string().optional(), 'Task graph of the task.'),
    repository: text('project/repo or .'),
    branch: cliHelp(z.string().optional(), 'Branch the run works on.'),
    objective: cliHelp(z.string().optional(), 'What the run is for (free text).'),
    tier: z.enum(TIERS).optional().describe("Default: the class's."),
    lane: text("Default: the class's."),
    session_id: cliHelp(z.string().optional(), "The agent's session id."),
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
  mcp: { tool: 'hub_run_open', when: 'Use when starting work that should be on record.' },
  http: [OPEN_ROUTE],
});

export const runClose = defineOp({
  id: 'run.close',
  summary: 'Close an open run with its outcome, gates and evidence.',
  description:
    `Outcomes: ${RUN_OUTCOMES.join(', ')}. --gate name=pass|fail repeats. --evidence-file is read whole (a ` +
    `regular file of at most ${RUN_LIMITS.evidence_bytes} bytes; over MCP and HTTP inside the workspace). Of two ` +
    'closers racing, one wins and the other gets 409 naming the outcome. Event RunClosed.',
  input: z.strictObject({
    id: idField,
    outcome: cliHelp(z.enum(RUN_OUTCOMES), 'How it ended: landed, bounced, noop, abandoned, failed.'),
    mr_url: cliHelp(z.string().optional(), 'Merge/pull request URL (http or https).'),
    gate: z.array(z.string()).optional().describe('A gate result, name=pass or name=fail.'),
    evidence: text('Evidence text (instead of `evidence_file`).'),
    evidence_file: cliHelp(z.string().optional(), 'File whose text is the evidence (a log, a transcript).'),
    note: cliHelp(z.string().optional(), 'Note on the outcome.'),
    by: cliHelp(z.string().optional(), 'Who closes it (an agent id).'),
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
  mcp: { tool: 'hub_run_close', when: 'Use when your run has ended.' },
  http: [CLOSE_ROUTE],
});

export const runList = defineOp({
  id: 'run.list',
  summary: 'List runs newest first, by actor, class, outcome, open or task; paged by `cursor`.',
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
      .describe('Runs per page (default 100).'),
    cursor: text('next_cursor of the last page.'),
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
  mcp: { tool: 'hub_run_list', when: 'Use when looking for runs.' },
  http: [LIST_ROUTE],
});

export const runShow = defineOp({
  id: 'run.show',
  summary: 'One run with its dispatch, outcome, gates and evidence.',
  input: z.strictObject({ id: idField }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<{ run: RunRecord }> => showRun(coordDeps(ctx), input.id),
  cli: { command: 'run show', human: (r) => JSON.stringify(r.run, null, 2) },
  mcp: { tool: 'hub_run_show', when: 'Use when you need one run in full.' },
  http: [SHOW_ROUTE],
});

export const runReplay = defineOp({
  id: 'run.replay',
  summary: "Re-issue a run's dispatch as a new open run linked by replay_of.",
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
  mcp: { tool: 'hub_run_replay', when: 'Use when a run should be retried as dispatched.' },
  http: [REPLAY_ROUTE],
});

export const runExport = defineOp({
  id: 'run.export',
  summary: 'Export runs (one by `id`, or filtered) as json or jsonl.',
  description:
    'Masks tokens (GitHub, GitLab, Slack, AWS, OpenAI, Stripe, Google, npm, JWT...), URL credentials, ' +
    'Authorization headers, PEM private keys and KEY=value lines of secret names, in every field.',
  input: z.strictObject({
    id: text('One run id (instead of filters).'),
    ...filterFields,
    format: z
      .enum(EXPORT_FORMATS)
      .optional()
      .describe('jsonl: one run per line (default json: {runs:[...]}).'),
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
  mcp: { tool: 'hub_run_export', when: 'Use when runs must go to a file.' },
  http: [EXPORT_ROUTE],
});
