import { HubError } from '../infra/index.js';
import { atlasPlace } from './atlas-dir.js';
import type { IndexEntry } from './index-file.js';
import { atlasIndex, underPath } from './query.js';

/** Most entities a card or a compiled pack lists; the counts are always whole. */
export const MENTION_LIMIT = 30;

export interface AtlasMention {
  /** The folder the entities were taken from (`.` for the whole repository). */
  path: string;
  /** Entities whose file lies under the path, by kind. */
  counts: Record<string, number>;
  entities: Array<Pick<IndexEntry, 'id' | 'kind' | 'name' | 'file' | 'line'>>;
  /** Curated entities (concepts, capabilities, contracts...) related to those, one hop. */
  related: Array<{ id: string; kind: string; name: string; relation: string }>;
  truncated?: true;
  /** Set instead of the rest when `.atlas/` could not be read (a hostile or broken atlas never breaks a card). */
  error?: string;
  /** The `expr` of `hub atlas query` (hub_atlas_query) that lists the symbols in full. */
  query: string;
}

/**
 * What `.atlas/` of the checkout at `dir` knows about `sub` (a repository-relative folder): undefined when there
 * is no `.atlas/`. Reads the index when it is fresh, else the YAML files (bounded, confined), never the sources.
 */
export function atlasMention(dir: string, sub: string): AtlasMention | undefined {
  const query = `Symbol[file="${sub}"]`;
  let index: ReturnType<typeof atlasIndex>['index'];
  try {
    const place = atlasPlace(dir, '.');
    if (!place.exists) return undefined;
    index = atlasIndex(place.dir).index;
  } catch (err) {
    if (!(err instanceof HubError)) throw err;
    return { path: sub, counts: {}, entities: [], related: [], error: err.message, query };
  }
  const inside = index.entities.filter((e) => e.file !== undefined && underPath(e.file, sub));
  const ids = new Set(inside.map((e) => e.id));
  const byId = new Map(index.entities.map((e) => [e.id, e]));
  const counts: Record<string, number> = {};
  for (const e of inside) counts[e.kind] = (counts[e.kind] ?? 0) + 1;
  const related: AtlasMention['related'] = [];
  const seen = new Set<string>();
  for (const r of index.relations) {
    const other = ids.has(r.to) ? r.from : ids.has(r.from) ? r.to : undefined;
    const e = other ? byId.get(other) : undefined;
    if (
      !e ||
      ids.has(e.id) ||
      seen.has(e.id) ||
      e.classification === 'restricted' ||
      e.classification === 'confidential'
    )
      continue;
    seen.add(e.id);
    related.push({ id: e.id, kind: e.kind, name: e.name, relation: r.relation });
  }
  const shown = inside.filter(
    (e) => e.classification !== 'restricted' && e.classification !== 'confidential',
  );
  return {
    path: sub,
    counts,
    entities: shown
      .slice(0, MENTION_LIMIT)
      .map(({ id, kind, name, file, line }) => ({ id, kind, name, file, line })),
    related: related.slice(0, MENTION_LIMIT),
    ...(shown.length > MENTION_LIMIT || related.length > MENTION_LIMIT ? { truncated: true as const } : {}),
    query,
  };
}
