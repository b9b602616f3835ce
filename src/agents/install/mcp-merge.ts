import { isDeepStrictEqual } from 'node:util';
import type { ConfigFormat } from '../vendors.js';
import { mergeJson } from './mcp-merge-json.js';
import { mergeToml } from './mcp-merge-toml.js';
import { mergeYaml } from './mcp-merge-yaml.js';

/** What merging one server entry into a configuration file comes to. */
export type MergeOutcome =
  /** The entry is there already with the same value (key order aside): nothing to write. */
  | { kind: 'unchanged' }
  /** The file's new text: the entry added, everything else kept. */
  | { kind: 'merged'; text: string }
  /** An entry of that name exists with another value; `text` is what --force would write. */
  | { kind: 'differs'; existing: unknown; text: string }
  /**
   * The file is not valid in its format, breaks a bound (`rule`: `max_depth`, ...) or its root key is not a table
   * of servers: never overwritten.
   */
  | { kind: 'unparsable'; reason: string; rule?: string };

export interface EntryEdit {
  /** The key holding the servers (`mcpServers`, `servers`, `mcp`, `mcp_servers`). */
  rootKey: string;
  /** The server's name under it (`hub`). */
  name: string;
  entry: Record<string, unknown>;
}

/**
 * Merges a server entry into the text of a configuration file (null: the file does not exist), through the
 * format's own maintained parser so that the user's other keys, comments and formatting stay as they were.
 * A file holding only whitespace counts as empty (there is nothing in it to keep).
 */
export function mergeServerEntry(format: ConfigFormat, text: string | null, edit: EntryEdit): MergeOutcome {
  const src = text === null || text.trim() === '' ? null : text;
  if (format === 'json') return mergeJson(src, edit);
  if (format === 'yaml') return mergeYaml(src, edit);
  return mergeToml(src, edit);
}

/**
 * Parsed data as plain objects and arrays (parsers may build objects without a prototype, or date classes), so
 * that a deep comparison compares data, not how a parser built it.
 */
export function toPlain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Date) return `date:${v.toISOString()}`;
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(x)]));
  return v;
}

/** A plain object (not an array, not null): the only shape a table of servers or a server entry may have. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/**
 * The outcome once the existing servers table is known: unchanged, differs, or the caller's merged text.
 * `servers` is undefined when the file has no such table yet. `merged` returns null when the text it produced
 * does not parse back to the old data plus the entry (a check against the libraries' own mistakes).
 */
export function judgeEntry(servers: unknown, edit: EntryEdit, merged: () => string | null): MergeOutcome {
  if (servers !== undefined && servers !== null && !isRecord(servers))
    return { kind: 'unparsable', reason: `'${edit.rootKey}' is not a table of servers` };
  const existing = isRecord(servers) ? servers[edit.name] : undefined;
  if (existing !== undefined && isDeepStrictEqual(existing, edit.entry)) return { kind: 'unchanged' };
  const text = merged();
  if (text === null)
    return { kind: 'unparsable', reason: 'hub cannot add the entry without changing the rest of the file' };
  return existing === undefined ? { kind: 'merged', text } : { kind: 'differs', existing, text };
}

/** 1-based line and column of an offset, for a parse error. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

/** The data with the entry set, as a merge must leave it: used to check the merged text. */
export function withEntry(data: Record<string, unknown>, edit: EntryEdit): Record<string, unknown> {
  const servers = isRecord(data[edit.rootKey]) ? (data[edit.rootKey] as Record<string, unknown>) : {};
  return { ...data, [edit.rootKey]: { ...servers, [edit.name]: edit.entry } };
}
