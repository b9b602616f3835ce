import { isDeepStrictEqual } from 'node:util';
import {
  renderKeepingSource,
  snapshotYaml,
  YAML_LIMITS,
  yaml,
  yamlLimitsFor,
  yamlStructureViolation,
} from '../../model/index.js';
import { type EntryEdit, isRecord, judgeEntry, type MergeOutcome, withEntry } from './mcp-merge.js';

const TO_JS = { maxAliasCount: YAML_LIMITS.maxAliasCount };

/**
 * YAML through the `yaml` Document API: the entry is set on the parsed document, which keeps comments, and the
 * document is rendered with hub's YAML saver (src/model/yaml-save.ts), which keeps the original bytes of every
 * line the edit did not touch (quotes, spacing, flow collections, CRLF). The result must parse back to the old
 * data plus the entry.
 */
export function mergeYaml(text: string | null, edit: EntryEdit): MergeOutcome {
  const Y = yaml();
  if (text === null)
    return { kind: 'merged', text: Y.stringify({ [edit.rootKey]: { [edit.name]: edit.entry } }) };
  // The composer recurses per level: nesting (and size) is refused before it runs.
  const bad = yamlStructureViolation(text, yamlLimitsFor(text.length));
  if (bad) return { kind: 'unparsable', rule: bad.rule, reason: bad.reason };
  const doc = Y.parseDocument(text, { uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    const at = err.linePos?.[0];
    return {
      kind: 'unparsable',
      reason: `not valid YAML: ${err.message.split('\n')[0]}${at ? ` (line ${at.line}, column ${at.col})` : ''}`,
    };
  }
  let data: unknown;
  try {
    data = doc.toJS(TO_JS);
  } catch (e) {
    return { kind: 'unparsable', reason: `not usable YAML: ${(e as Error).message}` };
  }
  if (data === null || data === undefined) data = {};
  if (!isRecord(data) || (doc.contents !== null && !Y.isMap(doc.contents)))
    return { kind: 'unparsable', reason: 'its top level is not a mapping' };
  const record = data;
  return judgeEntry(record[edit.rootKey], edit, () => {
    const snap = snapshotYaml(text, doc);
    // setIn makes the missing maps (a file of comments only has no contents yet); a `mcp_servers:` left empty
    // (null) is replaced by a map holding the entry.
    if (doc.contents === null || Y.isMap(doc.get(edit.rootKey, true)))
      doc.setIn([edit.rootKey, edit.name], doc.createNode(edit.entry));
    else doc.set(edit.rootKey, doc.createNode({ [edit.name]: edit.entry }));
    const out = renderKeepingSource(snap, doc);
    const again = Y.parseDocument(out);
    return again.errors.length === 0 && isDeepStrictEqual(again.toJS(TO_JS), withEntry(record, edit))
      ? out
      : null;
  });
}
