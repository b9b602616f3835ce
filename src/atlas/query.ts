import { didYouMean, ValidationError } from '../infra/index.js';
import { atlasPlace, noAtlas } from './atlas-dir.js';
import { buildIndex, type IndexEntry, readFreshIndex } from './index-file.js';
import { type AtlasIssue, currentHashes, listAtlas, loadAtlas } from './load.js';
import { type AtlasIndex, ENTITY_ID_RE, KIND_RE, type Relation } from './schemas.js';

export const MAX_QUERY_LENGTH = 1024;
export const QUERY_DEFAULT_LIMIT = 50;
export const QUERY_MAX_LIMIT = 1000;

/** A parsed query: a bare id, `Kind`, or `Kind[attr="value"]` with attr id, name or file. */
export interface ParsedQuery {
  kind?: string;
  attr?: 'id' | 'name' | 'file';
  value?: string;
}

const SELECTOR_RE = /^([A-Z][A-Za-z0-9]*)\s*\[\s*(id|name|file)\s*=\s*"((?:[^"\\]|\\.)*)"\s*\]$/;

/** Parses the query language; a ValidationError names the expression and the forms it accepts. */
export function parseQuery(expr: string): ParsedQuery {
  const q = expr.trim();
  if (q.length > MAX_QUERY_LENGTH)
    throw new ValidationError(`expr: longer than ${MAX_QUERY_LENGTH} characters`, {
      field: 'expr',
      rule: 'max_length',
      limit: MAX_QUERY_LENGTH,
    });
  if (ENTITY_ID_RE.test(q)) return { attr: 'id', value: q };
  if (KIND_RE.test(q)) return { kind: q };
  const m = SELECTOR_RE.exec(q);
  if (m) return { kind: m[1], attr: m[2] as ParsedQuery['attr'], value: m[3]!.replace(/\\(.)/g, '$1') };
  throw new ValidationError(
    `expr: '${q.slice(0, 80)}' is not a query; use an id (symbol:src.app.ts.main), a kind (Symbol) or Kind[id="x:y"], Kind[name="n"], Kind[file="path"]`,
    { field: 'expr', value: q.slice(0, 200), rule: 'query_syntax' },
  );
}

export interface RelatedView {
  relation: Relation['relation'];
  /** `out`: this entity is the relation's `from`; `in`: its `to`. */
  direction: 'out' | 'in';
  id: string;
  entity: IndexEntry | null;
}

export type QueryResult =
  | {
      ok: true;
      query: string;
      total: number;
      entities: Array<IndexEntry & { related: RelatedView[] }>;
      /** Set when `entities` was cut at the limit. */
      truncated?: boolean;
      /** Entities left out for their classification (over MCP and HTTP; policy/access.yaml). */
      withheld?: number;
      index: 'fresh' | 'rebuilt';
    }
  | { ok: false; query: string; reason: string; suggestions?: string[] };

const CLASS_RANK = { public: 0, internal: 1, confidential: 2, restricted: 3 } as const;
type Classification = keyof typeof CLASS_RANK;

export interface QueryInput {
  cwd: string;
  path?: string;
  expr: string;
  limit?: number;
  /** Folder the repository must lie in (MCP and HTTP). */
  confine?: string;
  /** The most sensitive classification the caller may see; all when undefined (the CLI). */
  maxClassification?: Classification | 'policy';
}

/** Refuses an atlas whose files break a bound or the layout (symlinks, size, depth): named, with the rule. */
function refuseIssues(issues: AtlasIssue[]): void {
  const err = issues.find((i) => i.severity === 'error');
  if (!err) return;
  const more = issues.filter((i) => i.severity === 'error').length - 1;
  throw new ValidationError(
    `.atlas/${err.file}: ${err.message} (rule ${err.rule})${more > 0 ? `; ${more} more problem(s)` : ''}; run \`hub atlas validate\``,
    { file: `.atlas/${err.file}`, rule: err.rule, ...(err.line ? { line: err.line } : {}) },
  );
}

/** The index of the atlas at `dir`: the cached one when it matches the YAML files, else rebuilt in memory. */
export function atlasIndex(dir: string): { index: AtlasIndex; fresh: boolean } {
  const listing = listAtlas(dir);
  const current = currentHashes(dir, listing);
  refuseIssues(current.issues);
  const cached = readFreshIndex(dir, current.hashes);
  const index = cached ?? buildIndex(loadAtlas(dir, listing));
  refuseIssues(index.problems.map((p) => ({ ...p, severity: 'error' as const })));
  return { index, fresh: cached !== undefined };
}

/** Answers a query: the matching entities, each with its one-hop relations (maps_to, implements, verified_by). */
export function queryAtlas(input: QueryInput): QueryResult {
  const q = parseQuery(input.expr);
  const place = atlasPlace(input.cwd, input.path, input.confine);
  if (!place.exists) throw noAtlas(input.path);
  const { index, fresh } = atlasIndex(place.dir);
  const byId = new Map(index.entities.map((e) => [e.id, e]));
  let matches: IndexEntry[];
  if (q.attr === 'id') {
    const hit = byId.get(q.value!);
    if (!hit) {
      const suggestions = didYouMean(q.value!, byId.keys());
      return {
        ok: false,
        query: input.expr,
        reason: `no entity has the id ${q.value}`,
        ...(suggestions.length ? { suggestions } : {}),
      };
    }
    if (q.kind && hit.kind !== q.kind)
      return { ok: false, query: input.expr, reason: `${q.value} is a ${hit.kind}, not a ${q.kind}` };
    matches = [hit];
  } else {
    const kinds = new Set(index.entities.map((e) => e.kind));
    if (q.kind && !kinds.has(q.kind)) {
      const suggestions = didYouMean(q.kind, kinds);
      return {
        ok: false,
        query: input.expr,
        reason: `no entity is of kind ${q.kind}`,
        ...(suggestions.length ? { suggestions } : {}),
      };
    }
    matches = index.entities.filter(
      (e) =>
        e.kind === q.kind &&
        (q.attr === undefined ||
          (q.attr === 'name' && e.name === q.value) ||
          (q.attr === 'file' && e.file !== undefined && underPath(e.file, q.value!))),
    );
    if (matches.length === 0)
      return { ok: false, query: input.expr, reason: `no ${q.kind} matches ${input.expr}` };
  }
  let withheld = 0;
  let visible = (_e: IndexEntry) => true;
  if (input.maxClassification) {
    const max =
      CLASS_RANK[
        input.maxClassification === 'policy' ? index.maxServedClassification : input.maxClassification
      ];
    visible = (e) => CLASS_RANK[e.classification] <= max;
    const before = matches.length;
    matches = matches.filter(visible);
    withheld = before - matches.length;
  }
  const limit = Math.min(input.limit ?? QUERY_DEFAULT_LIMIT, QUERY_MAX_LIMIT);
  const shown = matches.slice(0, limit);
  return {
    ok: true,
    query: input.expr,
    total: matches.length,
    entities: shown.map((e) => ({ ...e, related: relatedOf(e.id, index.relations, byId, visible) })),
    ...(matches.length > limit ? { truncated: true } : {}),
    ...(withheld ? { withheld } : {}),
    index: fresh ? 'fresh' : 'rebuilt',
  };
}

/** True when `file` is `dir` itself or lies beneath it (`.` is the whole repository). */
export function underPath(file: string, dir: string): boolean {
  const d = dir.replace(/^\.\/?/, '').replace(/\/+$/, '');
  return d === '' || file === d || file.startsWith(`${d}/`);
}

/** One hop through the relations; an entity the caller may not see is named by id only. */
function relatedOf(
  id: string,
  relations: readonly Relation[],
  byId: Map<string, IndexEntry>,
  visible: (e: IndexEntry) => boolean,
): RelatedView[] {
  const view = (other: string) => {
    const e = byId.get(other);
    return e && visible(e) ? e : null;
  };
  const out: RelatedView[] = [];
  for (const r of relations) {
    if (r.from === id) out.push({ relation: r.relation, direction: 'out', id: r.to, entity: view(r.to) });
    if (r.to === id) out.push({ relation: r.relation, direction: 'in', id: r.from, entity: view(r.from) });
  }
  return out;
}
