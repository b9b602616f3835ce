import * as z from 'zod';
import {
  type EventsFeed,
  eventsFeed,
  type FollowedEvent,
  followEvents,
  MAX_RECORDED_EVENTS,
  parseCursor,
  parseSince,
} from '../coord/index.js';
import { cliHelp } from './cli-help.js';
import { setAsideReporter } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';
import type { OpStream } from './stream.js';

export const contextEvents = defineOp({
  id: 'context.events',
  summary: 'Coordination events (objectives, handoffs, coord.events), oldest first.',
  description:
    'Each recorded event carries seq, its position in the workspace (1, 2, 3...): pass next_seq back as ' +
    '--after-seq to get exactly the events recorded since, even within the same millisecond. since is ' +
    'exclusive: next_cursor passed back as --since also works, by timestamp. On backends other than local ' +
    'and http only the persisted coord.events document is served.',
  input: z.strictObject({
    since: z.string().min(1).optional().describe('Only events after this ISO time.'),
    after_seq: z.coerce
      .number()
      .int()
      .min(0)
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .describe('Only events after this seq (an earlier next_seq).'),
    objective: cliHelp(z.string().min(1).optional(), 'Only events of this objective id.'),
    campaign: cliHelp(
      z.string().min(1).optional().describe('Only events of this campaign (its slug).'),
      'Only events of this campaign: data.campaign is the slug, or the objective id starts campaign-<slug>-.',
    ),
    limit: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(MAX_RECORDED_EVENTS, { error: `must be at most ${MAX_RECORDED_EVENTS}` })
      .optional()
      .describe('Most events (default: all); when truncated, continue from next_seq.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<EventsFeed> =>
    eventsFeed(ctx.store().store, input, () => ctx.now(), setAsideReporter(ctx)),
  cli: {
    command: 'context events',
    human: (r) =>
      [
        table(
          r.events.map((e) => [String(e.seq ?? '-'), e.timestamp, e.source, e.kind, e.subject ?? '-']),
          ['SEQ', 'TIMESTAMP', 'SOURCE', 'KIND', 'SUBJECT'],
        ) || 'no events',
        `next_cursor: ${r.next_cursor ?? '-'}`,
        `next_seq: ${r.next_seq ?? '-'}`,
        ...(r.truncated ? [`more events follow: --after-seq ${r.next_seq ?? 0}`] : []),
      ].join('\n'),
  },
  mcp: {
    tool: 'hub_events',
    when: 'Use when following what others did; pass next_seq back as `after_seq`.',
  },
  http: [{ method: 'GET', route: '/v3/ops/events', input: 'query' }],
});

/** How often a followed feed is read again, by default (ms). */
export const FOLLOW_POLL_MS = 1000;

export const contextEventsFollow = defineOp({
  id: 'context.events.follow',
  summary: 'Follow the coordination events feed: the events it holds, then each new one as it is recorded.',
  description:
    'Runs until interrupted (Ctrl-C) or, over HTTP, until the client goes away. Each event carries a cursor ' +
    '(its seq; <timestamp>|<id> for a derived event); pass it back as --after (HTTP: the Last-Event-ID header) ' +
    'to resume after it. Only reads.',
  input: z.strictObject({
    since: z.string().min(1).optional().describe('ISO 8601 timestamp; only events after it.'),
    objective: z.string().min(1).optional().describe('Only events of this objective id.'),
    campaign: cliHelp(
      z.string().min(1).optional().describe('Only events of this campaign (its slug).'),
      'Only events of this campaign: data.campaign is the slug, or the objective id starts campaign-<slug>-.',
    ),
    after: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe(
        "An event's cursor (a seq, or <timestamp>|<id>): only events after it (how a stream resumes).",
      ),
    poll_ms: z.coerce
      .number()
      .int()
      .min(100)
      .max(60_000)
      .optional()
      .describe(`How often the feed is read again for new events, in ms (default ${FOLLOW_POLL_MS}).`),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): OpStream<FollowedEvent> => {
    // Checked now, so a bad filter is a plain 400 or exit 1 before anything streams.
    if (input.since !== undefined) parseSince(input.since);
    if (input.after !== undefined) parseCursor(input.after);
    const { poll_ms, ...filter } = input;
    return {
      kind: 'stream',
      open: (signal) =>
        followEvents(ctx.store().store, filter, {
          pollMs: poll_ms ?? FOLLOW_POLL_MS,
          signal,
          now: () => ctx.now(),
        }),
      cursor: (item) => item.cursor,
      data: (item) => item.event,
      human: ({ event: e, cursor }) =>
        [e.timestamp, e.source, e.kind, e.subject ?? '-', `(after ${cursor})`].join('  '),
    };
  },
  cli: {
    command: 'context follow',
    stream: true,
    help: 'Prints one line per event (--json: one JSON object per line) until Ctrl-C.',
  },
  http: [{ method: 'GET', route: '/v3/ops/events/stream', input: 'query', stream: 'sse' }],
});
