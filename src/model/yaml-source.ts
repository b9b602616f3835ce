import type { Document, LineCounter } from 'yaml';
import { ValidationError } from '../infra/index.js';
import { yaml } from './yaml-lib.js';
import { syntaxHint } from './yaml-syntax-hint.js';

/** Upper bounds that keep a hostile file from costing unbounded time or memory. */
export interface YamlLimits {
  maxBytes: number;
  maxAliasCount: number;
  maxNodeDepth: number;
  maxTokens: number;
  maxNodes: number;
  maxItems: number;
}

/** The default bounds (a file of at most 8 MiB). */
export const YAML_LIMITS = {
  maxBytes: 8 * 1024 * 1024,
  maxAliasCount: 100,
  /** Block and flow levels together; the composer recurses per level and overflows near 400. */
  maxNodeDepth: 128,
  /** Values, indicators, commas, comments and line breaks; a value costs about 1 KB while parsing. */
  maxTokens: 3_000_000,
  /**
   * Scalars and collections, as the lexer sees them (a block level opened by `-` or `key:` counts as one). The
   * parser spends about 1 KB and 5 µs on each: a million is ~5 s and ~1 GB, five times a 5,000-repo workspace.
   */
  maxNodes: 1_000_000,
  /** Entries of one list or map (a 5,000-repo project is 5,000); no real list comes near it. */
  maxItems: 100_000,
} as const satisfies YamlLimits;

/**
 * The bounds for files of up to `maxBytes`: past the default size, the token and node budgets grow in proportion
 * (a larger file the user allowed may hold proportionally more), while depth, aliases and entries per list stay
 * fixed (no real file needs more of them as it grows).
 */
export function yamlLimitsFor(maxBytes: number): YamlLimits {
  if (maxBytes <= YAML_LIMITS.maxBytes) return { ...YAML_LIMITS, maxBytes };
  const f = maxBytes / YAML_LIMITS.maxBytes;
  return {
    ...YAML_LIMITS,
    maxBytes,
    maxTokens: Math.ceil(YAML_LIMITS.maxTokens * f),
    maxNodes: Math.ceil(YAML_LIMITS.maxNodes * f),
  };
}

export interface PrecheckOptions {
  /**
   * Keys whose list values are counted across the whole file in the lexer pass, before parsing: e.g. `depends_on`
   * (what the manifest's graph work grows with). Refused past `total`, with `rule`.
   */
  keyedEntries?: Readonly<Record<string, { total: number; rule: string }>>;
  /** The bounds to hold the file to; YAML_LIMITS by default. */
  limits?: YamlLimits;
}

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
  /** The key the issue is about (an unknown or a missing one). */
  key?: string;
  /** Known names close to the one given, closest first. */
  suggestions?: string[];
  /** What the schema expects there, in words. */
  expected?: string;
}

/**
 * Refuses nesting the recursive YAML composer could overflow the stack on, and token counts that would
 * cost unbounded memory, before the parser builds anything. It walks the lexer's token stream: the lexer
 * is iterative, keeps no tree and knows quoting, comments and block scalars exactly, so no character trick
 * hides a level. Block depth is the stack of open indentation columns, where `-`, `?` and `:` followed by
 * content on the same line open one more; flow depth counts brackets.
 */
function precheckStructure(text: string, path: string, what: string, opts: PrecheckOptions): void {
  let line = 1;
  let col = 0;
  let atLineStart = true;
  let pending = false;
  let blockScalarBody = false;
  let scalarText = false;
  let flow = 0;
  let tokens = 0;
  let nodes = 0;
  // Open block collections: indentation column, entries so far, first line. Open flow collections: same.
  const block: number[] = [];
  const blockItems: number[] = [];
  const blockLine: number[] = [];
  const flowItems: number[] = [];
  const flowLine: number[] = [];
  // Lists that are the value of a counted key (`depends_on:`), and their entries so far, by key.
  const blockKey: Array<string | undefined> = [];
  const flowKey: Array<string | undefined> = [];
  const keyed = opts.keyedEntries ?? {};
  const L = opts.limits ?? YAML_LIMITS;
  const keyedTotals = new Map<string, number>();
  let lastScalar: string | undefined;
  let pendingKey: string | undefined;
  for (const tok of new (yaml().Lexer)().lex(text)) {
    if (tok === yaml().CST.SCALAR) {
      scalarText = true;
      count();
      node();
      continue;
    }
    if (tok === yaml().CST.DOCUMENT || tok === yaml().CST.BOM) continue;
    if (tok === yaml().CST.FLOW_END) {
      flow = 0;
      flowItems.length = 0;
      flowLine.length = 0;
      flowKey.length = 0;
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
    if (type === 'comma' && flow > 0) {
      const top = flowItems.length - 1;
      if (top >= 0 && ++flowItems[top]! > L.maxItems) tooMany(flowLine[top]!);
      if (top >= 0) entryOf(flowKey[top], flowLine[top]!);
    }
    if (type === 'comment' || type === 'directive-line' || type === 'comma') continue;
    if (wasScalarText && blockScalarBody) {
      // The body of a `|` or `>` scalar (it starts a line and ends one) is text, never structure.
      blockScalarBody = false;
      continue;
    }
    // What a counted key's value is: a list opened next (block or flow), or anything else.
    const keyOfValue = pendingKey;
    pendingKey = undefined;
    if (type === 'map-value-ind' && lastScalar !== undefined && Object.hasOwn(keyed, lastScalar))
      pendingKey = lastScalar;
    lastScalar = wasScalarText ? tok : undefined;
    if (type === 'doc-start' || type === 'doc-end') {
      block.length = 0;
      blockItems.length = 0;
      blockLine.length = 0;
      blockKey.length = 0;
      atLineStart = false;
      pending = type === 'doc-start';
      continue;
    }
    if (type === 'flow-map-end' || type === 'flow-seq-end') {
      if (flow > 0) flow--;
      flowItems.pop();
      flowLine.pop();
      flowKey.pop();
      atLineStart = false;
      continue;
    }
    if (flow === 0) {
      if (atLineStart) {
        while (block.length > 0 && block[block.length - 1]! > startCol) popBlock();
        const top = block.length - 1;
        // Another entry of the collection at this column, or a new collection.
        const listOf = type === 'seq-item-ind' ? keyOfValue : undefined;
        if (top >= 0 && block[top] === startCol) {
          if (++blockItems[top]! > L.maxItems) tooMany(blockLine[top]!);
          entryOf(blockKey[top], blockLine[top]!);
        } else pushBlock(startCol, startLine, listOf);
      } else if (pending) pushBlock(startCol, startLine, undefined);
      pending = false;
    }
    atLineStart = false;
    if (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind') {
      if (flow === 0) pending = true;
    } else if (type === 'flow-map-start' || type === 'flow-seq-start') {
      flow++;
      flowItems.push(1);
      flowLine.push(startLine);
      const key = type === 'flow-seq-start' ? keyOfValue : undefined;
      flowKey.push(key);
      entryOf(key, startLine);
      node(startLine);
    } else if (type === 'block-scalar-header') blockScalarBody = true;
    if (block.length + flow > L.maxNodeDepth)
      fail(`collections nested deeper than ${L.maxNodeDepth} levels`, 'max_depth', startLine);
  }

  function pushBlock(column: number, at: number, key: string | undefined): void {
    block.push(column);
    blockItems.push(1);
    blockLine.push(at);
    blockKey.push(key);
    entryOf(key, at);
    node(at);
  }

  function popBlock(): void {
    block.pop();
    blockItems.pop();
    blockLine.pop();
    blockKey.pop();
  }

  /** One more entry in a list under a counted key, against that key's limit for the whole file. */
  function entryOf(key: string | undefined, at: number): void {
    if (key === undefined) return;
    const n = (keyedTotals.get(key) ?? 0) + 1;
    keyedTotals.set(key, n);
    const limit = keyed[key]!;
    if (n > limit.total)
      fail(
        `more than ${limit.total} '${key}' entries in the file; the list starting here takes it past the limit (${limit.rule}, limit ${limit.total})`,
        limit.rule,
        at,
        limit.total,
      );
  }

  function node(at = line): void {
    if (++nodes > L.maxNodes)
      fail(
        `more than ${L.maxNodes} YAML nodes (values and collections) (max_nodes)`,
        'max_nodes',
        at,
        L.maxNodes,
      );
  }

  function tooMany(at: number): never {
    return fail(
      `the list or map starting here has more than ${L.maxItems} entries (max_items)`,
      'max_items',
      at,
      L.maxItems,
    );
  }

  function count(at = line): void {
    if (++tokens > L.maxTokens)
      fail(`more than ${L.maxTokens} YAML tokens (values, indicators, line breaks)`, 'max_tokens', at);
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

  function fail(message: string, rule: string, at = line, limit?: number): never {
    throw new ValidationError(`${what} ${path} line ${at}: ${message}`, {
      file: path,
      line: at,
      rule,
      ...(limit === undefined ? {} : { limit }),
    });
  }
}

/** What a YAML text breaks before any parse: the rule, its line, and a reason that names the limit. */
export interface YamlStructureViolation {
  rule: string;
  line: number;
  limit?: number;
  /** `nests deeper than the limit of 128 levels at line 3 (max_depth)`. */
  reason: string;
}

/**
 * What would overflow the YAML composer's stack or cost unbounded memory (nesting, tokens, nodes, entries per
 * list past `limits`), found before any parser builds anything; undefined when the text is within them. For
 * readers that parse YAML themselves (hub's own loads go through parseYamlSource, which refuses the same).
 */
export function yamlStructureViolation(
  text: string,
  limits: YamlLimits = YAML_LIMITS,
): YamlStructureViolation | undefined {
  try {
    precheckStructure(text, '', '', { limits });
    return undefined;
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    const d = (e.details ?? {}) as { rule?: unknown; line?: unknown; limit?: unknown };
    const rule = String(d.rule ?? 'syntax');
    const line = typeof d.line === 'number' ? d.line : 1;
    const limit =
      rule === 'max_depth' ? limits.maxNodeDepth : typeof d.limit === 'number' ? d.limit : undefined;
    const reason =
      rule === 'max_depth'
        ? `nests deeper than the limit of ${limits.maxNodeDepth} levels at line ${line} (max_depth)`
        : `${e.message.replace(/^\s*line \d+: /, '')} at line ${line} (${rule})`;
    return { rule, line, ...(limit === undefined ? {} : { limit }), reason };
  }
}

/** Parses YAML text into a Document with positions, refusing syntax errors, alias bombs and deep nesting. */
export function parseYamlSource(
  text: string,
  path: string,
  what: string,
  opts: PrecheckOptions = {},
): YamlSource {
  precheckStructure(text, path, what, opts);
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
  // One syntax error is reported, the first: the parser's later messages mostly follow from it (one line indented
  // off its column yields half a dozen), and the hint names the line to change and what was expected there.
  const issues: SourceIssue[] = doc.errors.slice(0, 1).map((e) => {
    const pos = lines.linePos(e.pos[0]);
    const parser = firstLine(e.message);
    const hint = syntaxHint(text, pos.line);
    const rest = doc.errors.length - 1;
    const more = rest > 0 ? `; ${rest} later parser message(s) left out: fix this line first` : '';
    return hint
      ? { path: '', line: hint.line, message: `${hint.message} (YAML: ${parser})${more}`, rule: 'syntax' }
      : { path: '', line: pos.line, column: pos.col, message: `${parser}${more}`, rule: 'syntax' };
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
