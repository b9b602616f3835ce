import * as z from 'zod';
import {
  describeObjective,
  EDITABLE_OBJECTIVE_FIELDS,
  editObjective,
  normalizeRepos,
  OBJECTIVE_STATUSES,
  type Objective,
  objectiveListing,
  objectivePatch,
  resumeObjective,
  type SetAsideRecord,
  type UpsertResult,
  upsertObjective,
} from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps, readNotesFile } from './coord-deps.js';
import { keyValues, table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES, WRITES_IDEMPOTENT } from './registry.js';

const statusField = z.string().describe(`One of ${OBJECTIVE_STATUSES.join(', ')}.`);
const text = (d: string) => z.string().optional().describe(d);

const quickNoteFields = {
  left_off: text('Appended to agent_notes.'),
  next: text('The next step (appended).'),
  blockers: text('What blocks you (appended).'),
};

const objectiveSetInput = z.strictObject({
  id: z.string().min(1).optional().describe('Default: slug of `title`.'),
  title: text('Required for a new objective.'),
  status: statusField.optional(),
  repos: z.array(z.string()).optional().describe('project/repo references or paths.'),
  acceptance: cliHelp(z.string().optional(), 'Acceptance criteria.'),
  human_notes: text('Replaces the human notes.'),
  agent_notes: text('Replaces the agent notes.'),
  mr_url: cliHelp(z.string().optional(), 'Merge/pull request URL.'),
  approval_id: cliHelp(z.string().optional(), 'Id of the approval request this objective waits on.'),
  ...quickNoteFields,
  notes: text('Free text (appended).'),
  notes_file: text('Workspace file whose text is appended instead of `notes`.'),
});

/** Upsert input as plain data: the notes file read (its text is `notes`), repos normalized against this root. */
type PlainUpsert = Omit<z.output<typeof objectiveSetInput>, 'notes_file'>;

/** Text of the `notes` quick note: given inline, or read from `notes_file` (not both). */
function notesText(ctx: OpContext, notes: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return notes;
  if (notes !== undefined)
    throw new ValidationError('notes: give notes or notes_file, not both', {
      field: 'notes',
      rule: 'one_of_notes_or_notes_file',
    });
  return readNotesFile(ctx, file);
}

const UPSERT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/objectives', input: 'body' };
const EDIT_ROUTE: HttpBinding = { method: 'PATCH', route: '/v3/ops/objectives/{id}', input: 'body' };

/**
 * Creates or merges an objective where the objectives document is kept (the state server's route, or here).
 * `forceStatus` (pause) is sent as the status, which the upsert then applies on create and merge alike.
 */
function applyUpsert(ctx: OpContext, input: PlainUpsert): Promise<UpsertResult> {
  const root = ctx.root();
  const plain = {
    ...input,
    repos: input.repos === undefined ? undefined : normalizeRepos(root, input.repos),
  };
  return applyWhereStored(ctx, UPSERT_ROUTE, { ...plain }, (deps) => {
    const { left_off, next, blockers, notes, ...fields } = plain;
    return upsertObjective(
      deps,
      { ...fields, notes: { left_off, next, blockers, notes_file: notes } },
      { root },
    );
  });
}

const upsertHuman = (r: UpsertResult) =>
  `${r.created ? 'created' : 'updated'} objective ${r.objective.id} [${r.objective.status}]: ${r.objective.title}`;

const objectiveRows = (list: Objective[]) =>
  table(
    list.map((o) => [o.id, o.status, o.updated_at, o.title]),
    ['ID', 'STATUS', 'UPDATED', 'TITLE'],
  );

export const objectiveSet = defineOp({
  id: 'context.objective.set',
  summary: 'Create an objective, or merge into the one with the same id.',
  description:
    'Reads a JSON object on stdin (flags win). Without --id the id is a slug of the title. Repos are merged; ' +
    'absolute paths inside the workspace become ./relative. Quick notes are appended to agent_notes as ' +
    '"[<ISO time>] <label>: <text>" lines.',
  input: objectiveSetInput,
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<UpsertResult> => {
    const { notes, notes_file, ...fields } = input;
    return applyUpsert(ctx, { ...fields, notes: notesText(ctx, notes, notes_file) });
  },
  cli: { command: 'context objective set', stdinJson: true, human: (r) => upsertHuman(r) },
  mcp: { tool: 'hub_objective_upsert', when: 'Use when you start or progress on an objective.' },
  http: [UPSERT_ROUTE],
});

export const objectiveEdit = defineOp({
  id: 'context.objective.edit',
  summary: 'Set some fields of an objective; the others stay.',
  description:
    'Give --field and --value (repos: a comma-separated list or a JSON array), or the fields themselves ' +
    '(PATCH body). Values replace the stored ones. Any other field is refused.',
  // Loose on purpose: an unknown field reaches the handler and is refused with the list of editable fields.
  input: z.looseObject({
    id: cliHelp(z.string().min(1), 'Objective id.'),
    field: z
      .string()
      .min(1)
      .optional()
      .describe(`With \`value\`: one of ${EDITABLE_OBJECTIVE_FIELDS.join(', ')}.`),
    value: z.string().optional().describe('New value of `field`.'),
    title: cliHelp(z.string().optional(), 'New title.'),
    status: statusField.optional(),
    repos: z.array(z.string()).optional().describe('Replaces the list.'),
    acceptance: cliHelp(z.string().optional(), 'New acceptance criteria.'),
    human_notes: cliHelp(z.string().optional(), 'New human notes.'),
    agent_notes: cliHelp(z.string().optional(), 'New agent notes.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input): Promise<{ objective: Objective }> => {
    const { id, field, value, ...changes } = input as Record<string, unknown> & {
      id: string;
      field?: string;
      value?: string;
    };
    if (field !== undefined) {
      if (value === undefined)
        throw new ValidationError(`value: required with field '${field}'`, {
          field: 'value',
          rule: 'required',
        });
      changes[field] = value;
    } else if (value !== undefined) {
      throw new ValidationError('field: required with value', { field: 'field', rule: 'required' });
    }
    // Checked and normalized here (against this workspace), applied where the document is kept.
    const patch = objectivePatch(changes, ctx.root());
    return applyWhereStored(ctx, EDIT_ROUTE, { id, ...patch }, async (deps) => ({
      objective: await editObjective(deps, id, patch, ctx.root()),
    }));
  },
  cli: {
    command: 'context objective edit',
    human: (r) => `edited objective ${r.objective.id}\n${keyValues(r.objective)}`,
  },
  mcp: { tool: 'hub_objective_edit', when: 'Use when one field must change.' },
  http: [EDIT_ROUTE],
});

export const objectiveList = pagedList(
  defineOp({
    id: 'context.objective.list',
    summary: 'List objectives, optionally of one status.',
    input: z.strictObject({
      status: cliHelp(z.enum(OBJECTIVE_STATUSES).optional(), 'Only objectives with this status.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ objectives: Objective[]; set_aside?: SetAsideRecord[] }> => {
      const all = await objectiveListing(coordDeps(ctx));
      return input.status
        ? { ...all, objectives: all.objectives.filter((o) => o.status === input.status) }
        : all;
    },
    cli: { command: 'context objective list', human: (r) => objectiveRows(r.objectives) || 'no objectives' },
    mcp: { tool: 'hub_objective_list', when: 'Use when you need the objectives.' },
    http: [{ method: 'GET', route: '/v3/ops/objectives', input: 'query' }],
  }),
  { key: 'objectives', noun: 'Objectives', order: 'in stored order (oldest first)' },
);

export const contextPause = defineOp({
  id: 'context.pause',
  summary: 'Record where you stopped: creates or updates an in_progress objective with dated notes.',
  description: 'Without --id the id is a slug of the title. --repo may repeat; repos are merged.',
  input: z.strictObject({
    id: z.string().min(1).optional().describe('Objective id; default: slug of the title.'),
    title: text('Title; required when the objective is new.'),
    repo: z.array(z.string()).optional().describe('Repository reference (project/repo or a path).'),
    ...quickNoteFields,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<UpsertResult> => {
    const { id, title, repo, left_off, next, blockers } = input;
    return applyUpsert(ctx, { id, title, status: 'in_progress', repos: repo, left_off, next, blockers });
  },
  cli: { command: 'context pause', human: (r) => upsertHuman(r) },
});

interface ResumeResult {
  found: boolean;
  query: string | null;
  format: 'summary' | 'detailed';
  objective: Objective | null;
  /** Other matches, best first (at most 5). */
  alternatives: Array<Pick<Objective, 'id' | 'title' | 'status' | 'updated_at'>>;
  /** The plain-text briefing (format detailed only). */
  detail?: string;
}

export const contextResume = defineOp({
  id: 'context.resume',
  summary: 'Pick the objective to resume: in_progress first, then the most recently updated.',
  description: 'The optional substring filter matches id, title, repos and notes (case-insensitive).',
  input: z.strictObject({
    query: z.string().optional().describe('Substring of the objective to find.'),
    format: cliHelp(z.enum(['summary', 'detailed']).default('summary'), 'Output detail.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<ResumeResult> => {
    const { objective, ranked } = await resumeObjective(coordDeps(ctx), input.query);
    return {
      found: objective !== null,
      query: input.query ?? null,
      format: input.format,
      objective,
      alternatives: ranked
        .slice(1, 6)
        .map(({ id, title, status, updated_at }) => ({ id, title, status, updated_at })),
      ...(objective && input.format === 'detailed' ? { detail: describeObjective(objective) } : {}),
    };
  },
  cli: {
    command: 'context resume',
    args: ['query'],
    human: (r) => {
      if (!r.objective) return r.query ? `no objective matches '${r.query}'` : 'no objectives yet';
      const head = r.detail ?? `${r.objective.id}: ${r.objective.title} [${r.objective.status}]`;
      const more = r.alternatives.map((a) => `  ${a.id} [${a.status}] ${a.title}`);
      return more.length ? `${head}\nalso:\n${more.join('\n')}` : head;
    },
  },
  mcp: { tool: 'hub_context_resume', when: 'Use when picking up where work stopped.' },
});
