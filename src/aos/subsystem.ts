import * as z from 'zod';

export const FINDING_SEVERITIES = ['error', 'warning', 'info'] as const;

/** One thing `aos doctor` found: what, how bad, in which subsystem, and the command that deals with it. */
export const FindingSchema = z.object({
  severity: z.enum(FINDING_SEVERITIES),
  code: z.string(),
  subsystem: z.string(),
  message: z.string(),
  /** The record the finding is about (agent id, lease id, node id, merge id...), when it is about one. */
  subject: z.string().optional(),
  /** A hub command (argv joined for reading) that deals with it. */
  command: z.string().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

/**
 * A subsystem as `aos` sees it: a summary of its counts and, for the doctor, what looks wrong given that summary.
 * The ops layer builds the list from every room (acl, semantic, merge, taskgraph, scheduler, runs), so a room that
 * fails to answer makes its subsystem unavailable without hiding the others.
 */
export interface AosSubsystem {
  name: string;
  summary(): Promise<Record<string, unknown>>;
  findings?(summary: Record<string, unknown>): Promise<Finding[]> | Finding[];
}

export type SubsystemView =
  | { available: true; summary: Record<string, unknown> }
  | { available: false; error: string };

/** Runs every subsystem's summary; a failure becomes `available: false` with its message. */
export async function summarize(
  subsystems: readonly AosSubsystem[],
): Promise<Array<{ subsystem: AosSubsystem; view: SubsystemView }>> {
  const out: Array<{ subsystem: AosSubsystem; view: SubsystemView }> = [];
  for (const s of subsystems) {
    try {
      out.push({ subsystem: s, view: { available: true, summary: await s.summary() } });
    } catch (err) {
      out.push({
        subsystem: s,
        view: { available: false, error: err instanceof Error ? err.message : String(err) },
      });
    }
  }
  return out;
}
