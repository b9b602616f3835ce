import { isDeepStrictEqual } from 'node:util';
import type { ParseError } from 'jsonc-parser';
import { jsonNestingViolation, nestingMessage } from '../../infra/index.js';
import { insertProperty, type JsonStyle } from './json-insert.js';
import { jsonc } from './jsonc-lib.js';
import {
  type EntryEdit,
  isRecord,
  judgeEntry,
  lineColumn,
  type MergeOutcome,
  withEntry,
} from './mcp-merge.js';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

/** Indentation and line ends as the file has them, so the inserted entry looks like its neighbours. */
function styleOf(text: string): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)["}\]/]/.exec(text);
  const indent = m?.[1] ?? '  ';
  return { eol, unit: indent.startsWith('\t') ? '\t' : ' '.repeat(Math.min(indent.length, 8)) };
}

/** The text with the entry set: a new property inserted by hand, an existing value replaced by jsonc-parser. */
function edited(text: string, edit: EntryEdit): string {
  const style = styleOf(text);
  const { applyEdits, findNodeAtLocation, modify, parseTree } = jsonc();
  const root = parseTree(text, [], PARSE_OPTIONS)!;
  const servers = findNodeAtLocation(root, [edit.rootKey]);
  if (!servers) return insertProperty(text, root, edit.rootKey, { [edit.name]: edit.entry }, style);
  if (servers.type === 'object' && !findNodeAtLocation(servers, [edit.name]))
    return insertProperty(text, servers, edit.name, edit.entry, style);
  const path = servers.type === 'object' ? [edit.rootKey, edit.name] : [edit.rootKey];
  const value = servers.type === 'object' ? edit.entry : { [edit.name]: edit.entry };
  const formattingOptions = { insertSpaces: style.unit !== '\t', tabSize: style.unit.length, eol: style.eol };
  return applyEdits(text, modify(text, path, value, { formattingOptions }));
}

/**
 * JSON and JSON with comments (VS Code's mcp.json is JSONC), through jsonc-parser: a new entry is inserted as a
 * property of its own (json-insert.ts) and an entry replaced with `--force` is rewritten by jsonc-parser's
 * `modify`; comments, key order and the formatting of everything else stay byte for byte. The result is parsed
 * again and must hold exactly the old data plus the entry.
 */
export function mergeJson(text: string | null, edit: EntryEdit): MergeOutcome {
  if (text === null)
    return {
      kind: 'merged',
      text: `${JSON.stringify({ [edit.rootKey]: { [edit.name]: edit.entry } }, null, 2)}\n`,
    };
  // jsonc-parser recurses per level: a file nested thousands deep would overflow the stack.
  const deep = jsonNestingViolation(text);
  if (deep) return { kind: 'unparsable', rule: 'max_depth', reason: nestingMessage(deep) };
  const { parse, printParseErrorCode } = jsonc();
  const errors: ParseError[] = [];
  const data: unknown = parse(text, errors, PARSE_OPTIONS);
  if (errors.length > 0) {
    const e = errors[0]!;
    return {
      kind: 'unparsable',
      reason: `not valid JSON: ${printParseErrorCode(e.error)} at ${lineColumn(text, e.offset)}`,
    };
  }
  if (!isRecord(data)) return { kind: 'unparsable', reason: 'its top level is not a JSON object' };
  return judgeEntry(data[edit.rootKey], edit, () => {
    const out = edited(text, edit);
    const again: unknown = parse(out, [], PARSE_OPTIONS);
    return isDeepStrictEqual(again, withEntry(data, edit)) ? out : null;
  });
}
