import * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import {
  addClass,
  CLASS_LIMITS,
  DEFAULT_LANE_POLICY,
  DEFAULT_ROUTE_LIMIT,
  evaluateLanes,
  type LaneEvalResult,
  listClasses,
  MAX_ASK_CHARS,
  MAX_ROUTE_LIMIT,
  type RequestClass,
  type RouteAnswer,
  RUN_OUTCOMES,
  readClasses,
  routeQuery,
  showClass,
  TIERS,
} from '../runs/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const ADD_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/routing/classes', input: 'body' };
const LANE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/routing/lanes/eval', input: 'body' };

const text = (d: string) => z.string().optional().describe(d);

/** `true`/`false`, or `yes`/`no` as typed on the command line (`--mutates no`). */
const YES_NO: Record<string, boolean> = { true: true, yes: true, false: false, no: false };
function mutatesOf(v: boolean | string | undefined): boolean | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  const b = YES_NO[v.toLowerCase()];
  if (b === undefined)
    throw new ValidationError(`mutates: '${v}' is not true, false, yes or no`, {
      field: 'mutates',
      value: v,
      rule: 'true|false|yes|no',
    });
  return b;
}

const matchRows = (r: RouteAnswer) =>
  table(
    r.matches.map((m) => [m.id, m.confidence.toFixed(3), m.why, m.title]),
    ['CLASS', 'CONFIDENCE', 'WHY', 'TITLE'],
  );

const classRows = (list: RequestClass[]) =>
  table(
    list.map((c) => [c.id, c.tier, c.promotion_state, c.mutates ? 'mutates' : 'read-only', c.title]),
    ['CLASS', 'TIER', 'STATE', 'EFFECT', 'TITLE'],
  );

export const routeQueryOp = defineOp({
  id: 'route.query',
  summary: 'Route an ask to the request classes whose triggers match it best, with why.',
  description:
    'Words are [a-z0-9] runs, lower-cased, minus 27 stopwords; per class the best trigger F1 ' +
    '2|q∩t|/(|q|+|t|). No match: ok false with a hint to add a class, exit 1.',
  input: z.strictObject({
    ask: cliHelp(z.string().max(MAX_ASK_CHARS), 'What is asked, in words (at most 4096 characters).'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_ROUTE_LIMIT)
      .optional()
      .describe(`Most matches (default ${DEFAULT_ROUTE_LIMIT}).`),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<RouteAnswer> =>
    routeQuery(await readClasses(coordDeps(ctx)), input.ask, input.limit),
  cli: {
    command: 'route query',
    args: ['ask'],
    human: (r) => (r.ok ? matchRows(r) : `no match: ${r.hint}`),
    exitCode: (r) => (r.ok ? 0 : 1),
  },
  mcp: { tool: 'hub_route_query', when: 'Use when you need the class and lane of an ask.' },
  http: [{ method: 'GET', route: '/v3/ops/routing/query', input: 'query' }],
});

export const routeAdd = defineOp({
  id: 'route.add',
  summary: 'Add a request class (triggers, tier, lane, executor); `update` changes one.',
  description:
    `A new class needs --title and a --trigger (at most ${CLASS_LIMITS.triggers}, each at most ` +
    `${CLASS_LIMITS.trigger_chars} characters with a word to route on). Tier defaults to novel, mutates to true. ` +
    'With --update the given fields replace the stored ones; promotion state and evidence are kept. Reads a JSON ' +
    'object on stdin (flags win). Events RequestClassAdded, RequestClassUpdated.',
  input: z.strictObject({
    id: z.string().min(1).describe('Class id, for example REQ-docs.'),
    title: cliHelp(z.string().optional(), 'What the class of work is.'),
    trigger: z.array(z.string()).optional().describe('Phrases that asks of this class contain.'),
    tier: z.enum(TIERS).optional().describe('New class: novel.'),
    lane: cliHelp(z.string().optional(), 'Lane the class runs in.'),
    mutates: z
      .union([z.boolean(), z.string()])
      .optional()
      .describe('Whether its runs change code or systems (new class: true).'),
    executor: text('What runs it without a model (needed to become deterministic).'),
    skill: cliHelp(z.string().optional(), 'Skill an agent uses for it.'),
    artifact: cliHelp(z.string().optional(), 'What a run produces.'),
    gate: cliHelp(z.array(z.string()).optional(), 'A gate its runs must pass (a name).'),
    notes: cliHelp(z.string().optional(), 'Notes.'),
    update: cliHelp(z.boolean().optional(), 'Change an existing class instead of adding one.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ class: RequestClass; created: boolean }> => {
    const { update, trigger, gate, mutates, ...rest } = input;
    const body = { ...rest, triggers: trigger, gates: gate, mutates: mutatesOf(mutates) };
    return applyWhereStored(ctx, ADD_ROUTE, { ...input, mutates: body.mutates }, (deps) =>
      addClass(deps, body, { update }),
    );
  },
  cli: {
    command: 'route add',
    stdinJson: true,
    human: (r) =>
      `${r.created ? 'added' : 'updated'} class ${r.class.id} [${r.class.tier}]: ${r.class.title}`,
  },
  mcp: { tool: 'hub_route_add', when: 'Use when a kind of work has no class yet.' },
  http: [ADD_ROUTE],
});

export const routeList = pagedList(
  defineOp({
    id: 'route.list',
    summary: 'List request classes, of one tier or only those ready for an executor.',
    input: z.strictObject({
      tier: cliHelp(z.enum(TIERS).optional(), 'Only classes of this tier.'),
      ready: z.boolean().optional().describe('Only classes waiting for an executor.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: (ctx, input): Promise<{ classes: RequestClass[]; count: number }> =>
      listClasses(coordDeps(ctx), input),
    cli: {
      command: 'route list',
      human: (r) =>
        r.classes.length === 0 ? 'no request classes (add one: hub route add)' : classRows(r.classes),
    },
    mcp: { tool: 'hub_route_list', when: 'Use when you need the request classes.' },
    http: [{ method: 'GET', route: '/v3/ops/routing/classes', input: 'query' }],
  }),
  { key: 'classes', noun: 'Classes', order: 'in stored order (oldest first)' },
);

export const routeShow = defineOp({
  id: 'route.show',
  summary: 'A request class with its newest runs and their count.',
  input: z.strictObject({ id: cliHelp(z.string().min(1), 'Class id.') }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => showClass(coordDeps(ctx), input.id),
  cli: { command: 'route show', human: (r) => JSON.stringify(r, null, 2) },
  mcp: { tool: 'hub_route_show', when: 'Use when you need one class in full.' },
  http: [{ method: 'GET', route: '/v3/ops/routing/classes/{id}', input: 'query' }],
});

export const laneEval = defineOp({
  id: 'lane.eval',
  summary: "Promote or demote request classes' tiers by their runs' outcomes; `dry_run` only reports.",
  description:
    `Per class, over closed runs newest first (abandoned skipped): an outcome in --demote-on (default ` +
    `${DEFAULT_LANE_POLICY.demote_on.join(', ')}) moves the tier one step toward novel; ` +
    `--promote-after-clean (default ${DEFAULT_LANE_POLICY.promote_after_clean}) landed runs in a row move it one ` +
    'step toward deterministic (mutating classes stop at skilled; deterministic needs an executor). Only runs ' +
    'after the last tier change count. Events LaneEvaluated, LanePromoted, LaneDemoted.',
  input: z.strictObject({
    id: cliHelp(z.string().optional(), 'Only this class.'),
    dry_run: cliHelp(z.boolean().optional(), 'Decide and report; write nothing.'),
    promote_after_clean: z.coerce
      .number()
      .int()
      .optional()
      .describe(`Landed runs in a row that promote (default ${DEFAULT_LANE_POLICY.promote_after_clean}).`),
    demote_on: z
      .array(z.enum(RUN_OUTCOMES))
      .optional()
      .describe(`Outcomes that demote (default ${DEFAULT_LANE_POLICY.demote_on.join(', ')}).`),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<LaneEvalResult> =>
    applyWhereStored(ctx, LANE_ROUTE, input, (deps) => evaluateLanes(deps, input)),
  cli: {
    command: 'lane eval',
    human: (r) =>
      [
        r.results.length === 0
          ? 'no request classes'
          : table(
              r.results.map((d) => [d.id, `${d.tier_before} -> ${d.tier}`, d.action, d.reason]),
              ['CLASS', 'TIER', 'ACTION', 'REASON'],
            ),
        `${r.dry_run ? 'dry run: ' : ''}${r.evaluated} evaluated, ${r.promoted.length} promoted, ${r.demoted.length} demoted`,
      ].join('\n'),
  },
  mcp: { tool: 'hub_lane_eval', when: 'Use when tiers should follow recent runs.' },
  http: [LANE_ROUTE],
});
