import type { Document, Node, YAMLMap } from 'yaml';
import { ValidationError } from '../infra/index.js';
import { ensureSeq, yaml } from '../model/index.js';
import { CAMPAIGN_LIMITS, type Campaign, type Lesson, type WorkItemRef } from './schema.js';

/**
 * Edits of a campaign's YAML Document, node by node, so that a save changes only the lines they mean to. Each
 * takes the parsed Document of `updateCampaign`; rows are addressed by their index in `repos`.
 */

/** Order of the top-level keys hub writes: a key added later goes after the last of those before it. */
const TOP_ORDER = [
  'schema_version',
  'slug',
  'title',
  'status',
  'goal',
  'reference_impl',
  'objective_id',
  'created',
  'updated',
  'work_item',
  'selection',
  'repos',
  'lessons',
];

/** Sets a key of `map`, or removes it for `undefined`; a new key goes where `order` places it. */
function setKey(doc: Document, map: YAMLMap, key: string, value: unknown, order: readonly string[]): void {
  const Y = yaml();
  if (value === undefined) {
    map.delete(key);
    return;
  }
  const existing = map.get(key, true) as Node | undefined;
  if (existing !== undefined && Y.isScalar(existing) && (value === null || typeof value !== 'object')) {
    existing.value = value;
    return;
  }
  const node = doc.createNode(value) as Node;
  if (existing !== undefined) {
    map.set(key, node);
    return;
  }
  const pair = doc.createPair(key, node);
  const rank = order.indexOf(key);
  let at = map.items.length;
  if (rank >= 0) {
    // After the last present key that comes before it in the order.
    for (let i = map.items.length - 1; i >= 0; i--) {
      const k = map.items[i]!.key;
      const name = Y.isScalar(k) ? String(k.value) : String(k);
      const r = order.indexOf(name);
      if (r >= 0 && r < rank) {
        at = i + 1;
        break;
      }
      if (r > rank) at = i;
    }
  }
  map.items.splice(at, 0, pair);
}

function rootMap(doc: Document): YAMLMap {
  if (!yaml().isMap(doc.contents))
    throw new ValidationError('campaign: the document must be a mapping', { rule: 'mapping' });
  return doc.contents as YAMLMap;
}

/** Sets (or removes, with undefined) a top-level field. */
export function setField(doc: Document, key: string, value: unknown): void {
  setKey(doc, rootMap(doc), key, value, TOP_ORDER);
}

const ROW_ORDER = [
  'project',
  'repo',
  'role',
  'status',
  'mr',
  'note',
  'branch',
  'into',
  'patterns',
  'budget',
  'work_item',
];

function rowMap(doc: Document, index: number): YAMLMap {
  const row = doc.getIn(['repos', index], true);
  if (!yaml().isMap(row))
    throw new ValidationError(`repos[${index}]: not a mapping`, {
      field: `repos[${index}]`,
      rule: 'mapping',
    });
  return row as YAMLMap;
}

/** Sets (or removes, with undefined) fields of row `index`. */
export function setRowFields(doc: Document, index: number, fields: Record<string, unknown>): void {
  const row = rowMap(doc, index);
  for (const [k, v] of Object.entries(fields)) setKey(doc, row, k, v, ROW_ORDER);
}

/** Appends a lesson to `lessons` (made when absent); refused past the limit. */
export function appendLesson(doc: Document, campaign: Campaign, lesson: Lesson): void {
  if (campaign.lessons.length >= CAMPAIGN_LIMITS.lessons)
    throw new ValidationError(
      `lessons: the campaign holds ${campaign.lessons.length} lessons, the most it keeps; fold some together`,
      { field: 'lessons', rule: `max ${CAMPAIGN_LIMITS.lessons} lessons` },
    );
  if (doc.getIn(['lessons'], true) === undefined) setField(doc, 'lessons', []);
  const seq = ensureSeq(doc, ['lessons']);
  (seq as unknown as { items: unknown[] }).items.push(doc.createNode(lesson));
  if (yaml().isSeq(seq)) seq.flow = false;
}

/** The work item reference written for a row (or the campaign, index undefined): only its defined fields. */
export function setWorkItem(doc: Document, index: number | undefined, ref: WorkItemRef): void {
  const clean = Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== undefined));
  if (index === undefined) setField(doc, 'work_item', clean);
  else setRowFields(doc, index, { work_item: clean });
}
