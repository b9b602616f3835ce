import type { Document, Node, YAMLMap } from 'yaml';
import { yaml } from '../model/index.js';
import { CAMPAIGN_SCHEMA_VERSION } from './schema.js';

/**
 * Older spellings of a campaign document, read as the current ones on load and written so on the next save:
 * an integer `schema_version`, the statuses `complete`/`done` (completed) and `in-progress`/`in_progress`
 * (active), `selection.tags` as a list of `k=v` strings, and a `work_item` given as a bare id.
 */
export const STATUS_ALIASES: Readonly<Record<string, string>> = {
  complete: 'completed',
  done: 'completed',
  'in-progress': 'active',
  in_progress: 'active',
};

/** One older spelling found: where, what it said, what it is read as. */
export interface LegacySpelling {
  path: string;
  was: string;
  now: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `["lang=go", "legacy"]` as a map: `{lang: "go", legacy: true}`. */
export function tagListToMap(list: readonly unknown[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const item of list) {
    const s = String(item).trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) out[s] = true;
    else out[s.slice(0, eq).trim()] = s.slice(eq + 1).trim();
  }
  return out;
}

const versionOf = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

/** The document as plain data with older spellings replaced (a copy; `raw` is not changed). */
export function normalizeLegacy(raw: unknown): { value: unknown; legacy: LegacySpelling[] } {
  if (!isObject(raw)) return { value: raw, legacy: [] };
  const legacy: LegacySpelling[] = [];
  const value: Record<string, unknown> = { ...raw };
  if (typeof value.schema_version === 'number') {
    const now = versionOf(value.schema_version);
    legacy.push({ path: 'schema_version', was: String(value.schema_version), now: JSON.stringify(now) });
    value.schema_version = now;
  }
  if (typeof value.status === 'string' && STATUS_ALIASES[value.status]) {
    legacy.push({ path: 'status', was: value.status, now: STATUS_ALIASES[value.status]! });
    value.status = STATUS_ALIASES[value.status];
  }
  if (isObject(value.selection) && Array.isArray(value.selection.tags)) {
    const map = tagListToMap(value.selection.tags);
    legacy.push({ path: 'selection.tags', was: 'a list of k=v', now: 'a map' });
    value.selection = { ...value.selection, tags: map };
  }
  if (typeof value.work_item === 'string' || typeof value.work_item === 'number') {
    legacy.push({ path: 'work_item', was: 'a bare id', now: '{id: ...}' });
    value.work_item = { id: String(value.work_item) };
  }
  if (Array.isArray(value.repos)) {
    value.repos = value.repos.map((row, i) => {
      if (!isObject(row) || (typeof row.work_item !== 'string' && typeof row.work_item !== 'number'))
        return row;
      legacy.push({ path: `repos[${i}].work_item`, was: 'a bare id', now: '{id: ...}' });
      return { ...row, work_item: { id: String(row.work_item) } };
    });
  }
  return { value, legacy };
}

/**
 * Rewrites the older spellings inside the YAML Document, node by node, so that a save changes only their lines
 * (comments and every other line keep their bytes). A document without `schema_version` gets one, first.
 */
export function normalizeLegacyInDocument(doc: Document): void {
  const Y = yaml();
  const root = doc.contents;
  if (!Y.isMap(root)) return;
  const version = root.get('schema_version', true) as Node | undefined;
  if (version === undefined) {
    const pair = doc.createPair('schema_version', CAMPAIGN_SCHEMA_VERSION);
    (root as YAMLMap).items.unshift(pair);
  } else if (Y.isScalar(version) && typeof version.value === 'number') {
    version.value = versionOf(version.value);
    version.type = 'QUOTE_DOUBLE';
  }
  const status = root.get('status', true) as Node | undefined;
  if (Y.isScalar(status) && typeof status.value === 'string' && STATUS_ALIASES[status.value])
    status.value = STATUS_ALIASES[status.value];
  const tags = doc.getIn(['selection', 'tags'], true);
  if (Y.isSeq(tags)) {
    const map = tagListToMap(tags.toJSON() as unknown[]);
    const node = doc.createNode(map) as Node;
    node.commentBefore = tags.commentBefore;
    node.comment = tags.comment;
    doc.setIn(['selection', 'tags'], node);
  }
  const bareId = (path: Array<string | number>) => {
    const n = doc.getIn(path, true);
    if (Y.isScalar(n) && (typeof n.value === 'string' || typeof n.value === 'number'))
      doc.setIn(path, doc.createNode({ id: String(n.value) }));
  };
  bareId(['work_item']);
  const repos = root.get('repos', true);
  if (Y.isSeq(repos)) for (let i = 0; i < repos.items.length; i++) bareId(['repos', i, 'work_item']);
}
