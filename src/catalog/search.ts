import { join } from 'node:path';
import type { Catalog } from './catalog.js';
import type { Scope } from './lookup.js';

export interface SearchHit {
  type: 'project' | 'repo' | 'component';
  id: string;
  /** Absolute directory of the match. */
  path: string;
  score: number;
  matched: string[];
}

const flatTags = (tags: Record<string, unknown> | undefined): string =>
  Object.entries(tags ?? {})
    .map(([k, v]) => (v === true ? k : `${k}=${String(v)}`))
    .join(' ');

/** Scores each field: a name hit counts most, then path and tags, then free text. */
function score(
  terms: string[],
  fields: Array<[string, string | undefined, number]>,
): { score: number; matched: string[] } {
  let total = 0;
  const matched = new Set<string>();
  for (const t of terms) {
    let best = 0;
    for (const [name, value, weight] of fields) {
      if (!value) continue;
      const v = value.toLowerCase();
      if (v.includes(t)) {
        const exact = v === t ? 2 : 1;
        if (weight * exact > best) best = weight * exact;
        matched.add(name);
      }
    }
    if (best === 0) return { score: 0, matched: [] };
    total += best;
  }
  return { score: total, matched: [...matched] };
}

/** Searches the manifest's metadata only; every term must match some field. */
export function searchManifest(
  catalog: Catalog,
  query: string,
  opts: Scope & { limit: number },
): { hits: SearchHit[]; total: number } {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits: SearchHit[] = [];
  const inScope = (project: string, repo?: string) =>
    (!opts.project || project === opts.project) && (!opts.repo || !repo || repo === opts.repo);
  for (const p of catalog.file.manifest.workspace?.projects ?? []) {
    if (!inScope(p.name) || opts.repo) continue;
    const s = score(terms, [
      ['name', p.name, 5],
      ['description', p.description, 1],
      ['tags', flatTags(p.tags as Record<string, unknown>), 2],
    ]);
    if (s.score > 0) hits.push({ type: 'project', id: p.name, path: join(catalog.file.root, p.name), ...s });
  }
  for (const r of catalog.repos) {
    if (!inScope(r.project, r.name)) continue;
    const s = score(terms, [
      ['name', r.name, 5],
      ['id', r.id, 3],
      ['path', r.path, 2],
      ['url', r.url, 2],
      ['tags', flatTags(r.tags), 2],
      ['description', r.description, 1],
    ]);
    if (s.score > 0) hits.push({ type: 'repo', id: r.id, path: r.root, ...s });
  }
  for (const c of catalog.components) {
    if (!inScope(c.project, c.repo)) continue;
    const repo = catalog.repoById.get(`${c.project}/${c.repo}`)!;
    const lang = Array.isArray(c.raw.language) ? c.raw.language.join(' ') : c.raw.language;
    const s = score(terms, [
      ['name', c.name, 5],
      ['id', c.id, 3],
      ['path', c.path, 2],
      ['kind', c.kind, 2],
      ['language', lang, 2],
      ['tags', flatTags(c.raw.tags as Record<string, unknown>), 2],
      ['description', c.raw.description, 1],
    ]);
    if (s.score > 0)
      hits.push({
        type: 'component',
        id: c.id,
        path: c.path === '.' ? repo.root : join(repo.root, c.path),
        ...s,
      });
  }
  hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return { hits: hits.slice(0, opts.limit), total: hits.length };
}
