import * as z from 'zod';
import { randomHex, ValidationError } from '../infra/index.js';

/** The collection of the run ledger: one document per run, `runs/<run_id>` = `{run: {...}}`. */
export const RUNS_COLLECTION = 'runs';

/**
 * How a run ended. The earlier product's four (`landed`: its change merged or its answer was accepted;
 * `bounced`: sent back by a reviewer or a gate; `noop`: nothing needed doing; `abandoned`: stopped, e.g. its agent
 * died) plus `failed`: the run broke before it could produce a result (a crash, a tool or infrastructure error).
 */
export const RUN_OUTCOMES = ['landed', 'bounced', 'noop', 'abandoned', 'failed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export const RUN_STATUSES = ['open', 'closed'] as const;

/** Lane tiers of a request class, from the most automated to the least (the earlier product's three). */
export const TIERS = ['deterministic', 'skilled', 'novel'] as const;
export type Tier = (typeof TIERS)[number];

/** Gate results a closer records (`--gate lint=pass`). */
export const GATE_RESULTS = ['pass', 'fail'] as const;

/** Bounds of what a run carries; every record stays a small document. */
export const RUN_LIMITS = {
  /** An evidence file (or inline evidence) larger than this is refused, not cut: evidence is read whole. */
  evidence_bytes: 256 * 1024,
  text_chars: 4000,
  url_chars: 2048,
  path_chars: 4096,
  id_chars: 200,
  gates: 64,
} as const;

/**
 * Run ids sort by time: `run-` + the UTC opening time to the millisecond (ISO basic form) + 8 random hex digits,
 * e.g. `run-20260810T121314.123Z-3f9a1c2b`. Listing by id is listing by time; the random part keeps two runs
 * opened in the same millisecond apart.
 */
export const RUN_ID_RE = /^run-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{8}$/;

/** A new run id for a run opened at `now`. */
export function newRunId(now: Date): string {
  const iso = now.toISOString(); // 2026-08-10T12:13:14.123Z
  const basic = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 23)}Z`;
  return `run-${basic}-${randomHex(4)}`;
}

/** Checks a run id against RUN_ID_RE (so an id never names another document: no `/`, no `..`). */
export function checkRunId(id: string, field = 'run_id'): string {
  if (!RUN_ID_RE.test(id))
    throw new ValidationError(
      `${field}: '${id.length > 80 ? `${id.slice(0, 80)}...` : id}' is not a run id; run ids look like run-20260810T121314.123Z-3f9a1c2b`,
      { field, value: id.slice(0, 200), rule: RUN_ID_RE.source },
    );
  return id;
}

/** The store name of a run: `runs/run-20260810T121314.123Z-3f9a1c2b`. */
export const runDocument = (runId: string): string => `${RUNS_COLLECTION}/${runId}`;

export const GateSchema = z.object({ name: z.string(), result: z.enum(GATE_RESULTS) });
export type Gate = z.infer<typeof GateSchema>;

/** What a closer attached as evidence: its text with secrets redacted, its size and how many secrets were masked. */
export const EvidenceSchema = z.looseObject({
  text: z.string(),
  bytes: z.number().int().min(0),
  redactions: z.number().int().min(0),
});

/** The dispatch of a run: what `run replay` re-issues. */
export const DISPATCH_FIELDS = [
  'class',
  'task_id',
  'graph_id',
  'repository',
  'branch',
  'objective',
  'tier',
  'lane',
] as const;

// Stored records are loose: keys written by later builds or other tools survive a read-modify-write.
export const RunSchema = z.looseObject({
  run_id: z.string(),
  status: z.enum(RUN_STATUSES),
  actor: z.string(),
  class: z.string().optional(),
  task_id: z.string().optional(),
  graph_id: z.string().optional(),
  /** `<project>/<repo>` (or `self`). */
  repository: z.string().optional(),
  branch: z.string().optional(),
  objective: z.string().optional(),
  tier: z.enum(TIERS).optional(),
  lane: z.string().optional(),
  session_id: z.string().optional(),
  workdir: z.string().optional(),
  /** The run this one re-issues (`run replay`). */
  replay_of: z.string().optional(),
  opened_at: z.string(),
  closed_at: z.string().optional(),
  closed_by: z.string().optional(),
  outcome: z.enum(RUN_OUTCOMES).optional(),
  mr_url: z.string().optional(),
  gates: z.array(GateSchema).default([]),
  evidence: EvidenceSchema.optional(),
  note: z.string().optional(),
});
export type RunRecord = z.infer<typeof RunSchema>;

export const RunDocSchema = z.looseObject({ run: RunSchema.optional() });
