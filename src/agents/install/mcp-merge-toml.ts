import { isDeepStrictEqual } from 'node:util';
import { parse, patch, stringify } from '@decimalturn/toml-patch';
import { nestingMessage, tomlNestingViolation } from '../../infra/index.js';
import { type EntryEdit, isRecord, judgeEntry, type MergeOutcome, toPlain, withEntry } from './mcp-merge.js';

/** Largest TOML file merged into (toml-patch parses about a MiB a second). */
export const MAX_TOML_BYTES = 1024 * 1024;

/** Server tables as sections (`[mcp_servers.hub]`), their `env` as an inline table, arrays as Codex writes them. */
const FORMAT = { inlineTableStart: 2, trailingComma: false, bracketSpacing: false };

/** A bare TOML key, or a quoted one. */
const tomlKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

/** The entry as a `[<root>.<name>]` section of its own. */
function section(edit: EntryEdit): string {
  const body = stringify({ x: edit.entry }, { ...FORMAT, inlineTableStart: 1 }).replace(/^\[x\]\n/, '');
  return `[${tomlKey(edit.rootKey)}.${tomlKey(edit.name)}]\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

function parseToml(text: string): { ok: true; data: unknown } | { ok: false; reason: string } {
  try {
    // The parser makes objects without a prototype: compared as plain data.
    return { ok: true, data: toPlain(parse(text, { integersAsBigInt: 'asNeeded' })) };
  } catch (e) {
    return { ok: false, reason: `not valid TOML: ${(e as Error).message.split('\n')[0]}` };
  }
}

/**
 * TOML through toml-patch (a maintained fork of toml-patch that edits the syntax tree and keeps comments,
 * whitespace and formatting). A new entry is appended as its own `[mcp_servers.<name>]` section at the end of
 * the file (how Codex documents it), leaving every other byte alone; when that cannot hold (the servers
 * table is written inline, or by dotted keys) and to replace an existing entry, toml-patch edits the tree in
 * place. Either result must parse back to the old data plus the entry.
 */
export function mergeToml(text: string | null, edit: EntryEdit): MergeOutcome {
  if (text === null) return { kind: 'merged', text: section(edit) };
  // toml-patch recurses per array or inline table, and spends time on every dotted-key part and every line: a
  // Codex config.toml is a few KiB, so past a MiB (or past the nesting and key-part bounds) it is not parsed.
  if (Buffer.byteLength(text, 'utf8') > MAX_TOML_BYTES)
    return {
      kind: 'unparsable',
      rule: 'max_size',
      reason: `it is larger than the limit of ${MAX_TOML_BYTES / 1024 / 1024} MiB for a TOML configuration file (max_size)`,
    };
  const deep = tomlNestingViolation(text);
  if (deep) return { kind: 'unparsable', rule: deep.rule, reason: nestingMessage(deep) };
  const parsed = parseToml(text);
  if (!parsed.ok) return { kind: 'unparsable', reason: parsed.reason };
  const data = parsed.data;
  if (!isRecord(data)) return { kind: 'unparsable', reason: 'its top level is not a table' };
  return judgeEntry(data[edit.rootKey], edit, () => {
    const want = withEntry(data, edit);
    const holds = (out: string) => {
      const again = parseToml(out);
      return again.ok && isDeepStrictEqual(again.data, want);
    };
    const exists =
      isRecord(data[edit.rootKey]) && edit.name in (data[edit.rootKey] as Record<string, unknown>);
    if (!exists) {
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const sep = text.endsWith('\n') ? eol : `${eol}${eol}`;
      const appended = `${text}${sep}${section(edit).replace(/\n/g, eol)}`;
      if (holds(appended)) return appended;
    }
    try {
      const out = patch(text, want, FORMAT);
      return holds(out) ? out : null;
    } catch {
      return null;
    }
  });
}
