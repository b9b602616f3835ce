import type { TerrainActivity, TerrainGit, TerrainNode, TerrainVisual } from './types.js';

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const r3 = (n: number) => Math.round(n * 1000) / 1000 || 0;

const LABELS: Record<string, string> = {
  manifest: 'Manifest entry',
  missing: 'Not checked out',
  outside: 'Outside the workspace',
  not_git: 'Not a git repository',
  git_error: 'Git could not read it',
  conflict: 'Merge conflicts',
  synced_main: 'Clean default branch, in sync',
  behind_remote: 'Behind its remote',
  behind_heavy: 'Far behind its remote',
  main_local_work: 'Local work on the default branch',
  branch: 'Work on a branch',
  no_branch: 'No branch',
};

/** The tile of a node git has not been read for (manifest detail, missing, outside): flat, grey or unknown. */
export function staticVisual(state: 'manifest' | 'missing' | 'outside' | 'not_git'): TerrainVisual {
  const grey = state !== 'manifest';
  return {
    state,
    state_label: LABELS[state]!,
    elevation: 0,
    darken: grey ? 0.35 : 0,
    fade: state === 'missing' || state === 'outside' ? 0.35 : 0,
    crack: 0,
    pulse: 0,
    color: grey ? 'gray' : 'unknown',
  };
}

/**
 * The earlier product's terrain rules. Pressure = ahead + uncommitted; the first match wins: conflicts (cracked,
 * raised .16 p + .45); a clean default branch in sync (flat); the default branch only behind (sunk .14 per commit,
 * `behind_heavy` past 5); the default branch with local work (raised .16 p less .08 per commit behind); another
 * branch (its kind's colour, raised .16 p less .05 per commit behind); no branch (grey). Elevation is clamped to
 * [-3, 4]; behind, inactive and abandoned darken, abandoned also fades.
 */
export function gitVisual(git: TerrainGit, activity: TerrainActivity | null): TerrainVisual {
  if (git.error) return { ...staticVisual('not_git'), state: 'git_error', state_label: LABELS.git_error! };
  const ahead = git.ahead ?? 0;
  const behind = git.behind ?? 0;
  const p = ahead + git.uncommitted_count;
  let state: string;
  let elevation: number;
  let color: string;
  if (git.merge_conflicts > 0) {
    state = 'conflict';
    elevation = 0.16 * p + 0.45;
    color = 'conflict';
  } else if (git.branch_kind === 'default') {
    if (p === 0 && behind === 0) {
      state = 'synced_main';
      elevation = 0;
    } else if (p === 0) {
      state = behind > 5 ? 'behind_heavy' : 'behind_remote';
      elevation = Math.max(-3, -0.14 * behind);
    } else {
      state = 'main_local_work';
      elevation = 0.16 * p - 0.08 * behind;
    }
    color = state;
  } else if (git.branch_kind) {
    state = 'branch';
    elevation = 0.16 * p - 0.05 * behind;
    color = `branch_${git.branch_kind}`;
  } else {
    state = 'no_branch';
    elevation = 0;
    color = 'gray';
  }
  let darken = state === 'behind_remote' ? 0.2 : state === 'behind_heavy' ? 0.35 : 0;
  let fade = 0;
  if (activity?.level === 'inactive') darken += 0.25;
  if (activity?.level === 'abandoned') {
    darken += 0.45;
    fade = 0.35;
  }
  return {
    state,
    state_label: state === 'branch' ? `Work on a ${git.branch_kind} branch` : LABELS[state]!,
    elevation: r3(clamp(elevation, -3, 4)),
    darken: r3(Math.min(0.8, darken)),
    fade,
    crack: state === 'conflict' ? 1 : 0,
    pulse: activity?.pulse ?? 0,
    color,
  };
}

/** The visual a node gets from what is known of it. */
export function visualOf(
  node: Pick<TerrainNode, 'local_status' | 'is_git_repo' | 'git' | 'activity'>,
  enriched: boolean,
): TerrainVisual {
  if (node.local_status === 'outside_workspace') return staticVisual('outside');
  if (node.local_status === 'configured_missing') return staticVisual('missing');
  if (!enriched) return staticVisual('manifest');
  if (!node.git || node.is_git_repo === false) return staticVisual('not_git');
  return gitVisual(node.git, node.activity);
}
