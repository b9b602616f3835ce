import { describe, expect, it } from 'vitest';
import { activityOf } from './activity.js';
import { healthOf } from './dependencies.js';
import { parseStatusCounts, terrainGit } from './git-status.js';
import { CELL, layoutTerrain, PROJECT_SPACING } from './layout.js';
import { ownershipOf } from './ownership.js';
import type { TerrainGit } from './types.js';
import { gitVisual } from './visual.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const nowS = NOW.getTime() / 1000;
const H = 3600;

function git(over: Partial<TerrainGit>): TerrainGit {
  return {
    ...terrainGit(parseStatusCounts(''), 'main', null, NOW),
    branch: 'main',
    branch_kind: 'default',
    ...over,
  };
}

describe('terrain visual rules (the earlier product)', () => {
  it('a clean default branch in sync is a flat synced tile', () => {
    expect(gitVisual(git({ ahead: 0, behind: 0 }), null)).toMatchObject({
      state: 'synced_main',
      elevation: 0,
      crack: 0,
      color: 'synced_main',
    });
  });

  it('local work bulges, behind sinks (heavy past 5), conflicts crack', () => {
    expect(gitVisual(git({ ahead: 2, uncommitted_count: 3, dirty: true }), null)).toMatchObject({
      state: 'main_local_work',
      elevation: 0.8,
    });
    expect(gitVisual(git({ ahead: 0, behind: 3 }), null)).toMatchObject({
      state: 'behind_remote',
      elevation: -0.42,
      darken: 0.2,
    });
    expect(gitVisual(git({ ahead: 0, behind: 40 }), null)).toMatchObject({
      state: 'behind_heavy',
      elevation: -3,
      darken: 0.35,
    });
    expect(gitVisual(git({ merge_conflicts: 1, uncommitted_count: 1 }), null)).toMatchObject({
      state: 'conflict',
      elevation: 0.61,
      crack: 1,
    });
    expect(gitVisual(git({ ahead: 100 }), null).elevation).toBe(4);
  });

  it('other branches take their kind as colour; inactive darkens, abandoned fades', () => {
    const v = gitVisual(git({ branch: 'feature/x', branch_kind: 'feature', ahead: 1, behind: 2 }), null);
    expect(v).toMatchObject({ state: 'branch', color: 'branch_feature', elevation: 0.06 });
    expect(v.state_label).toBe('Work on a feature branch');
    const old = activityOf({ head: nowS - 40 * 24 * H, recent: [], capped: false }, NOW);
    expect(gitVisual(git({}), old)).toMatchObject({ darken: 0.45, fade: 0.35 });
    expect(gitVisual(git({ error: 'fatal: not a git repository' }), null).state).toBe('git_error');
  });
});

describe('activity windows', () => {
  it('counts commits in 24 h, 7 and 30 days and picks the level and pulse', () => {
    const e = {
      head: nowS - H,
      recent: [nowS - H, nowS - 2 * H, nowS - 3 * 24 * H, nowS - 20 * 24 * H],
      capped: false,
    };
    expect(activityOf(e, NOW)).toEqual({
      last_commit_at: new Date((nowS - H) * 1000).toISOString(),
      commits_24h: 2,
      commits_7d: 3,
      commits_30d: 4,
      capped: false,
      level: 'active',
      pulse: 0.51,
    });
    // The same entry a week later: commits fell out of the windows, none entered.
    const later = new Date(NOW.getTime() + 7 * 24 * H * 1000);
    expect(activityOf(e, later)).toMatchObject({
      commits_24h: 0,
      commits_7d: 0,
      commits_30d: 4,
      level: 'inactive',
    });
    expect(
      activityOf({ head: nowS - 5 * 24 * H, recent: [nowS - 5 * 24 * H], capped: false }, NOW),
    ).toMatchObject({
      level: 'recent',
      pulse: 0.18,
    });
    expect(activityOf(undefined, NOW)).toMatchObject({ level: 'abandoned', last_commit_at: null, pulse: 0 });
  });
});

describe('layout', () => {
  it('puts projects side by side and groups repositories by folder, deeper folders indented', () => {
    const { placed, regions } = layoutTerrain([
      { id: 'a/x', project: 'a', path: 'a/x' },
      { id: 'a/y', project: 'a', path: 'a/y' },
      { id: 'a/z', project: 'a', path: 'a/libs/z' },
      { id: 'b/w', project: 'b', path: 'w' },
    ]);
    expect(placed.get('a/x')).toEqual({ x: 0, y: 0, region: 'region:a:a' });
    expect(placed.get('a/y')).toEqual({ x: 0, y: CELL, region: 'region:a:a' });
    expect(placed.get('a/z')).toEqual({ x: CELL, y: 8.4, region: 'region:a:a/libs' });
    expect(placed.get('b/w')).toEqual({ x: PROJECT_SPACING, y: 0, region: 'region:b:.' });
    expect(regions).toEqual([
      { id: 'region:a:a', label: 'a', project_name: 'a', min_x: 0, max_x: 0, min_y: 0, max_y: CELL },
      {
        id: 'region:a:a/libs',
        label: 'a/libs',
        project_name: 'a',
        min_x: CELL,
        max_x: CELL,
        min_y: 8.4,
        max_y: 8.4,
      },
      { id: 'region:b:.', label: 'b', project_name: 'b', min_x: 24, max_x: 24, min_y: 0, max_y: 0 },
    ]);
  });
});

describe('ownership and dependency health', () => {
  it('takes team, else owner, from the repository tags, else from the project tags', () => {
    expect(ownershipOf({ team: 'identity', owner: 'alice' }, { team: 'platform' })).toEqual({
      team: 'identity',
      owner: 'alice',
      key: 'identity',
      source: 'repo_tags',
    });
    expect(ownershipOf({ owner: 'bob' }, {})).toMatchObject({ key: 'bob', team: null });
    expect(ownershipOf({ edge: true }, { team: 'platform' })).toMatchObject({
      key: 'platform',
      source: 'project_tags',
    });
    expect(ownershipOf({ team: true }, {})).toBeNull();
  });

  it('reads health from the words of the edge', () => {
    expect(healthOf('depends_on', null)).toBe('healthy');
    expect(healthOf('consumes', 'missing schema')).toBe('broken');
    expect(healthOf('calls', null, 'deprecated')).toBe('outdated');
  });
});
