import { readFileSync, statSync } from 'node:fs';
import { type Document, LineCounter, parseDocument } from 'yaml';
import { ValidationError } from '../infra/index.js';

/** Upper bounds that keep a hostile file from costing unbounded time or memory. */
export const YAML_LIMITS = {
  maxBytes: 8 * 1024 * 1024,
  maxAliasCount: 100,
  maxIndent: 2_000,
  maxFlowDepth: 200,
  maxNodeDepth: 128,
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
  const bytes = readFileSync(path);
  return decodeUtf8(bytes, path, what);
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
  const dec = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the shortest prefix that fails to decode (streaming mode tolerates a cut sequence).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      dec.decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

/** Cheap scan that refuses nesting the YAML parser would recurse through, before it runs. */
function precheckNesting(text: string, path: string, what: string): void {
  let line = 1;
  let indent = 0;
  let atLineStart = true;
  let flow = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      indent = 0;
      atLineStart = true;
      quote = null;
      continue;
    }
    if (atLineStart) {
      if (c === ' ') {
        if (++indent > YAML_LIMITS.maxIndent)
          fail(`indentation deeper than ${YAML_LIMITS.maxIndent} columns`);
        continue;
      }
      atLineStart = false;
    }
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#') {
      const nl = text.indexOf('\n', i);
      i = (nl < 0 ? text.length : nl) - 1;
    } else if (c === '[' || c === '{') {
      if (++flow > YAML_LIMITS.maxFlowDepth)
        fail(`flow collections nested deeper than ${YAML_LIMITS.maxFlowDepth}`);
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
  function fail(rule: string): never {
    throw new ValidationError(`${what} ${path} line ${line}: ${rule}`, {
      file: path,
      line,
      rule: 'max_depth',
    });
  }
}

/** Parses YAML text into a Document with positions, refusing syntax errors, alias bombs and deep nesting. */
export function parseYamlSource(text: string, path: string, what: string): YamlSource {
  precheckNesting(text, path, what);
  const lines = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, {
      lineCounter: lines,
      uniqueKeys: true,
      prettyErrors: false,
      keepSourceTokens: false,
    });
  } catch (err) {
    throw new ValidationError(`${what} ${path} could not be parsed: ${(err as Error).message}`, {
      file: path,
      rule: 'syntax',
    });
  }
  if (doc.errors.length > 0) {
    const issues: SourceIssue[] = doc.errors.slice(0, 20).map((e) => {
      const pos = lines.linePos(e.pos[0]);
      return { path: '', line: pos.line, column: pos.col, message: firstLine(e.message), rule: 'syntax' };
    });
    const first = issues[0]!;
    throw new ValidationError(`${what} ${path} line ${first.line}: ${first.message}`, {
      file: path,
      issues,
      rule: 'syntax',
    });
  }
  return { path, text, doc, lines };
}

/** Converts the Document to plain JS with the alias budget enforced. */
export function yamlToJs(src: YamlSource, what: string): unknown {
  try {
    return src.doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (err) {
    const msg = (err as Error).message;
    const rule = /alias/i.test(msg) ? 'alias_bomb' : 'syntax';
    throw new ValidationError(`${what} ${src.path}: ${firstLine(msg)}`, { file: src.path, rule });
  }
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
