import type { Ownership } from './types.js';

type Tags = Record<string, string | number | boolean>;

/** Tag keys that name a team, then an owner (first found wins; values must be text). */
const TEAM_KEYS = ['team', 'squad', 'group'];
const OWNER_KEYS = ['owner', 'owners', 'maintainer', 'maintainers'];

function pick(tags: Tags, keys: readonly string[]): string | null {
  for (const k of keys) {
    const v = tags[k];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}

/**
 * Who owns a repository, for the ownership heatmap: its own `team`/`owner` tags, else its project's. Null when
 * neither names anyone (tag lists such as `[edge, rust]` carry no owner).
 */
export function ownershipOf(repoTags: Tags, projectTags: Tags): Ownership | null {
  for (const [tags, source] of [
    [repoTags, 'repo_tags'],
    [projectTags, 'project_tags'],
  ] as const) {
    const team = pick(tags, TEAM_KEYS);
    const owner = pick(tags, OWNER_KEYS);
    if (team || owner) return { team, owner, key: (team ?? owner)!, source };
  }
  return null;
}
