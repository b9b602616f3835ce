import * as z from 'zod';
import { type EventsFeed, eventsFeed } from '../coord/index.js';
import { table } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';

export const contextEvents = defineOp({
  id: 'context.events',
  summary: 'Coordination events feed (objectives, handoffs, coord.events), oldest first.',
  description:
    'since is exclusive: pass next_cursor back as --since to get only newer events. On backends other than ' +
    'local only the persisted coord.events document is served.',
  input: z.strictObject({
    since: z.string().min(1).optional().describe('ISO 8601 timestamp; only events after it.'),
    objective: z.string().min(1).optional().describe('Only events of this objective id.'),
    campaign: z.string().min(1).optional().describe('Only events of objectives campaign-<slug>-*.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<EventsFeed> => eventsFeed(ctx.store().store, input, () => ctx.now()),
  cli: {
    command: 'context events',
    human: (r) =>
      [
        table(
          r.events.map((e) => [e.timestamp, e.source, e.kind, e.subject ?? '-']),
          ['TIMESTAMP', 'SOURCE', 'KIND', 'SUBJECT'],
        ) || 'no events',
        `next_cursor: ${r.next_cursor ?? '-'}`,
      ].join('\n'),
  },
  mcp: { tool: 'hub_events' },
  http: [{ method: 'GET', route: '/v3/ops/events', input: 'query' }],
});
