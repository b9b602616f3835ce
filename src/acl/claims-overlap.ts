import { HubError } from '../infra/index.js';
import { literalBounds, mayMatch, mayOverlap } from './claims-prefilter.js';
import { CLAIM_LIMITS, type Claim, type ClaimConflict } from './claims-schema.js';
import { type CompiledGlob, compiledMatches, compiledOverlap, compileGlob } from './glob/index.js';
import { isLive } from './liveness.js';

/** A stored pattern the glob engine refuses (hand-edited, or refused by a stricter engine): it is not guessed at. */
type Stored = { ok: true; glob: CompiledGlob } | { ok: false; reason: string };

function compileStored(pattern: string): Stored {
  try {
    return { ok: true, glob: compileGlob(pattern, 'claimed_pattern') };
  } catch (err) {
    if (err instanceof HubError && err.code === 'validation') return { ok: false, reason: err.message };
    throw err;
  }
}

const optional = (c: Claim) => ({
  ...(c.task_id === undefined ? {} : { task_id: c.task_id }),
  ...(c.component === undefined ? {} : { component: c.component }),
});

export interface FoundConflicts {
  conflicts: ClaimConflict[];
  /** True when the search stopped at the limit: there are more conflicts than listed. */
  truncated: boolean;
}

/**
 * The overlaps between `patterns` (normalized, already validated) and the live claims of other agents: one
 * conflict per (requested pattern, claimed pattern) pair that some real path matches, with that path, in claim
 * order, at most `limit` (CLAIM_LIMITS.maxConflicts). A claim's stored pattern that cannot be compiled counts as
 * overlapping (advisory ownership errs towards conflict), with no witness. `exclude` is the asking agent: an agent
 * never conflicts with itself.
 */
export function findConflicts(
  claims: readonly Claim[],
  patterns: readonly string[],
  opts: { exclude?: string; now: Date; limit?: number },
): FoundConflicts {
  const limit = opts.limit ?? CLAIM_LIMITS.maxConflicts;
  const wanted = patterns.map((p) => ({
    pattern: p,
    bounds: literalBounds(p),
    glob: undefined as CompiledGlob | undefined,
  }));
  const out: ClaimConflict[] = [];
  for (const claim of claims) {
    if (claim.agent_id === opts.exclude || !isLive(claim, opts.now)) continue;
    for (const theirs of claim.patterns) {
      const tb = literalBounds(theirs);
      let stored: Stored | undefined;
      for (const w of wanted) {
        if (!mayOverlap(w.bounds, tb)) continue;
        stored ??= compileStored(theirs);
        let witness: string | null = null;
        if (stored.ok) {
          w.glob ??= compileGlob(w.pattern);
          const r = compiledOverlap(w.glob, stored.glob);
          if (!r.overlap) continue;
          witness = r.witness!;
        }
        if (out.length === limit) return { conflicts: out, truncated: true };
        out.push({
          claim_id: claim.claim_id,
          agent_id: claim.agent_id,
          ...optional(claim),
          pattern: w.pattern,
          claimed_pattern: theirs,
          witness,
          expires_at: claim.expires_at,
          reason:
            witness === null
              ? `${w.pattern} is checked against claim ${claim.claim_id} of agent ${claim.agent_id}, whose pattern ${theirs} cannot be read (${(stored as { reason: string }).reason}); it counts as overlapping`
              : `${w.pattern} and ${theirs} (claim ${claim.claim_id} of agent ${claim.agent_id}) both match ${witness}`,
        });
      }
    }
  }
  return { conflicts: out, truncated: false };
}

/** One staged path inside a live claim of another agent. */
export interface PathHit {
  path: string;
  claim_id: string;
  agent_id: string;
  task_id?: string;
  component?: string;
  claimed_pattern: string;
  expires_at: string;
}

/**
 * The paths (repository-relative, as git lists them) that live claims of agents other than `exclude` cover:
 * one hit per path and claim (the claim's first matching pattern).
 */
export function pathsClaimed(
  claims: readonly Claim[],
  paths: readonly string[],
  opts: { exclude?: string; now: Date },
): PathHit[] {
  const out: PathHit[] = [];
  const live = claims.filter((c) => c.agent_id !== opts.exclude && isLive(c, opts.now));
  for (const path of paths) {
    for (const claim of live) {
      for (const theirs of claim.patterns) {
        if (!mayMatch(literalBounds(theirs), path)) continue;
        const stored = compileStored(theirs);
        if (stored.ok && !compiledMatches(stored.glob, path)) continue;
        out.push({
          path,
          claim_id: claim.claim_id,
          agent_id: claim.agent_id,
          ...optional(claim),
          claimed_pattern: theirs,
          expires_at: claim.expires_at,
        });
        break;
      }
    }
  }
  return out;
}

/** One overlapping pair of `overlapPairs`. */
export interface PatternPair {
  a: string;
  b: string;
  /** Null when `b` is a stored pattern that cannot be read (it then counts as overlapping). */
  witness: string | null;
}

/**
 * Every overlapping pair between patterns `as` (validated) and stored patterns `bs`, with the exact prefilter: only
 * pairs it cannot rule out are compiled and decided.
 */
export function overlapPairs(as: readonly string[], bs: readonly string[]): PatternPair[] {
  const out: PatternPair[] = [];
  for (const a of as) {
    const ab = literalBounds(a);
    for (const b of bs) {
      if (!mayOverlap(ab, literalBounds(b))) continue;
      const stored = compileStored(b);
      if (!stored.ok) {
        out.push({ a, b, witness: null });
        continue;
      }
      const r = compiledOverlap(compileGlob(a), stored.glob);
      if (r.overlap) out.push({ a, b, witness: r.witness! });
    }
  }
  return out;
}
