import * as z from 'zod';
import { type CoordDeps, readDoc, recordEvent, updateDoc } from '../coord/index.js';
import { DECISIONS_DOCUMENT } from './policy.js';

/** Decisions kept in `schedule/decisions`: the newest 500 (older ones drop off; their events stay in the feed). */
export const MAX_DECISIONS = 500;

export const ScheduleDecisionSchema = z.looseObject({
  decision_id: z.string(),
  at: z.string(),
  agent_id: z.string(),
  graph_id: z.string(),
  node_id: z.string(),
  title: z.string().optional(),
  repository: z.string().nullable().optional(),
  score: z.number(),
  terms: z.record(z.string(), z.number()).default(() => ({})),
  reasons: z.array(z.string()).default(() => []),
  /** True when `schedule next` moved the node to running for the agent. */
  started: z.boolean().default(false),
  compile_command: z.string().optional(),
  bind_command: z.string().optional(),
  start_command: z.string().optional(),
});
export type ScheduleDecision = z.infer<typeof ScheduleDecisionSchema>;

export const DecisionsDocSchema = z.looseObject({
  decisions: z.array(ScheduleDecisionSchema).default(() => []),
});

/** The kept decisions, oldest first (a pure read). */
export async function readDecisions(deps: CoordDeps): Promise<ScheduleDecision[]> {
  return (await readDoc(deps, DECISIONS_DOCUMENT, DecisionsDocSchema)).decisions;
}

/** Appends decisions atomically, keeping the newest MAX_DECISIONS; one ScheduleDecision event (source scheduler) each. */
export async function recordDecisions(
  deps: CoordDeps,
  decisions: readonly ScheduleDecision[],
): Promise<void> {
  if (decisions.length === 0) return;
  await updateDoc(deps, DECISIONS_DOCUMENT, DecisionsDocSchema, (doc) => {
    doc.decisions = doc.decisions.concat(decisions).slice(-MAX_DECISIONS);
  });
  for (const d of decisions)
    await recordEvent(
      deps.store,
      {
        source: 'scheduler',
        kind: 'ScheduleDecision',
        subject: d.graph_id,
        data: {
          decision_id: d.decision_id,
          agent_id: d.agent_id,
          graph_id: d.graph_id,
          node_id: d.node_id,
          ...(d.repository ? { repository: d.repository } : {}),
          score: d.score,
          started: d.started,
          reasons: d.reasons,
        },
      },
      deps.now,
    );
}
