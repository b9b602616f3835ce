import { statSync } from 'node:fs';
import type { Document, LineCounter } from 'yaml';
import { tryReadFileBounded, ValidationError } from '../infra/index.js';
import { yaml } from './yaml-lib.js';

/** Upper bounds that keep a hostile file from costing unbounded time or memory. */
export const YAML_LIMITS = {
  maxBytes: 8 * 1024 * 1024,
  maxAliasCount: 100,
  /** Block and flow levels together; the composer recurses per level and overflows near 400. */
  maxNodeDepth: 128,
  /** Values, indicators, commas, comments and line breaks; a value costs about 1 KB while parsing. */
  maxTokens: 3_000_000,
} as const;

export interface YamlSource {
  path: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export interface SourceIssue {
  path: string;
  line?: number;
  column?: number;
  message: string;
  rule: string;
}

/** Reads a file as strict UTF-8 within the size limit; errors name the byte's line. */
export function readUtf8File(path: string, what: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new ValidationError(`${what} not found: ${path}`, { file: path, rule: 'exists' });
  }
  if (size > YAML_LIMITS.maxBytes) {
    throw new ValidationError(
      `${what} ${path} is ${(size / 1_048_576).toFixed(1)} MiB; the limit is ${YAML_LIMITS.maxBytes / 1_048_576} MiB`,
      { file: path, rule: 'max_size', size, limit: YAML_LIMITS.maxBytes },
    );
  }
  // A regular file only, and the limit counted on the bytes read: a FIFO or /dev/zero stats as 0 bytes.
  const read = tryReadFileBounded(path, { maxBytes: YAML_LIMITS.maxBytes });
  if (!read.ok)
    throw new ValidationError(`${what} ${path} cannot be read: ${read.reason}`, {
      file: path,
      rule: read.rule,
    });
  return decodeUtf8(read.bytes, path, what);
}

export function decodeUtf8(bytes: Uint8Array, path: string, what: string): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
    throw new ValidationError(`${what} ${path} is not valid UTF-8 (first bad byte at line ${line})`, {
      file: path,
      line,
      rule: 'utf8',
    });
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the shortest prefix that fails to decode (streaming mode tolerates a cut sequence).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      // A fresh decoder each time: a streaming one would carry a cut sequence into the next probe.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

/**
 * Refuses nesting the recursive YAML composer could overflow the stack on, and token counts that would
 * cost unbounded memory, before the parser builds anything. It walks the lexer's token stream: the lexer
 * is iterative, keeps no tree and knows quoting, comments and block scalars exactly, so no character trick
 * hides a level. Block depth is the stack of open indentation columns, where `-`, `?` and `:` followed by
 * content on the same line open one more; flow depth counts brackets.
 */
function precheckStructure(text: string, path: string, what: string): void {
  let line = 1;
  let col = 0;
  let atLineStart = true;
  let pending = false;
  let blockScalarBody = false;
  let scalarText = false;
  let flow = 0;
  let tokens = 0;
  const block: number[] = [];
  for (const tok of new (yaml().Lexer)().lex(text)) {
    if (tok === yaml().CST.SCALAR) {
      scalarText = true;
      count();
      continue;
    }
    if (tok === yaml().CST.DOCUMENT || tok === yaml().CST.BOM) continue;
    if (tok === yaml().CST.FLOW_END) {
      flow = 0;
      continue;
    }
    const wasScalarText = scalarText;
    scalarText = false;
    const type = wasScalarText ? 'scalar' : yaml().CST.tokenType(tok);
    if (type === 'newline') {
      count();
      line++;
      col = 0;
      atLineStart = true;
      pending = false;
      continue;
    }
    const startCol = col;
    const startLine = line;
    advance(tok);
    if (type === 'space') continue;
    if (!wasScalarText) count(startLine);
    if (type === 'comment' || type === 'directive-line' || type === 'comma') continue;
    if (wasScalarText && blockScalarBody) {
      // The body of a `|` or `>` scalar (it starts a line and ends one) is text, never structure.
      blockScalarBody = false;
      continue;
    }
    if (type === 'doc-start' || type === 'doc-end') {
      block.length = 0;
      atLineStart = false;
      pending = type === 'doc-start';
      continue;
    }
    if (type === 'flow-map-end' || type === 'flow-seq-end') {
      if (flow > 0) flow--;
      atLineStart = false;
      continue;
    }
    if (flow === 0) {
      if (atLineStart) {
        while (block.length > 0 && block[block.length - 1]! >= startCol) block.pop();
        block.push(startCol);
      } else if (pending) block.push(startCol);
      pending = false;
    }
    atLineStart = false;
    if (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind') {
      if (flow === 0) pending = true;
    } else if (type === 'flow-map-start' || type === 'flow-seq-start') flow++;
    else if (type === 'block-scalar-header') blockScalarBody = true;
    if (block.length + flow > YAML_LIMITS.maxNodeDepth)
      fail(`collections nested deeper than ${YAML_LIMITS.maxNodeDepth} levels`, 'max_depth', startLine);
  }

  function count(at = line): void {
    if (++tokens > YAML_LIMITS.maxTokens)
      fail(
        `more than ${YAML_LIMITS.maxTokens} YAML tokens (values, indicators, line breaks)`,
        'max_tokens',
        at,
      );
  }

  function advance(tok: string): void {
    let nl = tok.indexOf('\n');
    if (nl < 0) {
      col += tok.length;
      return;
    }
    let last = nl;
    while (nl >= 0) {
      line++;
      last = nl;
      nl = tok.indexOf('\n', nl + 1);
    }
    col = tok.length - last - 1;
  }

  function fail(message: string, rule: string, at = line): never {
    throw new ValidationError(`${what} ${path} line ${at}: ${message}`, { file: path, line: at, rule });
  }
}

/** Parses YAML text into a Document with positions, refusing syntax errors, alias bombs and deep nesting. */
export function parseYamlSource(text: string, path: string, what: string): YamlSource {
  precheckStructure(text, path, what);
  const lines = new (yaml().LineCounter)();
  let doc: Document.Parsed;
  try {
    doc = yaml().parseDocument(text, {
      lineCounter: lines,
      // The parser's own check compares every key with every other; ours below is linear.
      uniqueKeys: false,
      prettyErrors: false,
      keepSourceTokens: false,
    });
  } catch (err) {
    throw new ValidationError(`${what} ${path} could not be parsed: ${(err as Error).message}`, {
      file: path,
      rule: 'syntax',
    });
  }
  const issues: SourceIssue[] = doc.errors.slice(0, 20).map((e) => {
    const pos = lines.linePos(e.pos[0]);
    return { path: '', line: pos.line, column: pos.col, message: firstLine(e.message), rule: 'syntax' };
  });
  if (issues.length === 0) duplicateKeys(doc.contents, [], lines, issues);
  if (issues.length > 0) {
    const first = issues[0]!;
    throw new ValidationError(`${what} ${path} line ${first.line}: ${first.message}`, {
      file: path,
      issues,
      rule: first.rule,
    });
  }
  return { path, text, doc, lines };
}

/** Collects keys repeated within one mapping (at most 20), each with the line of its second use. */
function duplicateKeys(
  node: unknown,
  at: Array<string | number>,
  lines: LineCounter,
  out: SourceIssue[],
): void {
  if (out.length >= 20) return;
  if (yaml().isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      at.push(i);
      duplicateKeys(node.items[i], at, lines, out);
      at.pop();
    }
    return;
  }
  if (!yaml().isMap(node)) return;
  const seen = new Set<unknown>();
  for (const pair of node.items) {
    if (!yaml().isPair(pair)) continue;
    const key = pair.key;
    if (!yaml().isScalar(key)) {
      duplicateKeys(key, at, lines, out);
      duplicateKeys(pair.value, at, lines, out);
      continue;
    }
    at.push(String(key.value));
    if (seen.has(key.value) && out.length < 20) {
      const pos = key.range ? lines.linePos(key.range[0]) : undefined;
      out.push({
        path: formatPath(at),
        line: pos?.line,
        column: pos?.col,
        message: `duplicate key '${String(key.value)}' (map keys must be unique)`,
        rule: 'duplicate_key',
      });
    }
    seen.add(key.value);
    duplicateKeys(pair.value, at, lines, out);
    at.pop();
  }
}

/** Converts the Document to plain JS with the alias budget enforced. */
export function yamlToJs(src: YamlSource, what: string): unknown {
  try {
    return src.doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (err) {
    const msg = firstLine((err as Error).message);
    if (!/alias/i.test(msg))
      throw new ValidationError(`${what} ${src.path}: ${msg}`, { file: src.path, rule: 'syntax' });
    const line = firstAliasLine(src);
    throw new ValidationError(
      `${what} ${src.path}${line ? ` line ${line}` : ''}: aliases expand past the limit of ${YAML_LIMITS.maxAliasCount} (${msg})`,
      { file: src.path, line, rule: 'alias_bomb', limit: YAML_LIMITS.maxAliasCount },
    );
  }
}

/** Line of the first alias (`*name`), where an expansion bomb starts to go off. */
function firstAliasLine(src: YamlSource): number | undefined {
  let line: number | undefined;
  yaml().visit(src.doc, {
    Alias(_, node) {
      if (node.range) line = src.lines.linePos(node.range[0]).line;
      return yaml().visit.BREAK;
    },
  });
  return line;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

/** Line and column of the node at `path` (or its closest existing ancestor). */
export function positionOf(
  src: YamlSource,
  path: ReadonlyArray<string | number>,
): { line: number; column: number } | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = src.doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && Array.isArray(node.range)) {
      const p = src.lines.linePos(node.range[0]);
      return { line: p.line, column: p.col };
    }
  }
  return undefined;
}

/** `workspace.projects[0].repos[1]` from `['workspace','projects',0,'repos',1]`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out || '(root)';
}
