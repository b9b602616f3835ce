import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';
import type { PrecheckOptions, YamlLimits } from './yaml-source.js';

let lib: typeof JsYaml | undefined;
let schema: JsYaml.Schema | undefined;

/**
 * js-yaml, loaded on first use and kept out of the CLI bundle (like `yaml`): a cached manifest read never pays for
 * it. It parses about 10x faster than the `yaml` Document API and keeps no tree, so it reads manifests; the
 * Document API stays for writes (comments kept) and for diagnostics that need lines.
 */
function jsYaml(): typeof JsYaml {
  lib ??= createRequire(import.meta.url)('js-yaml') as typeof JsYaml;
  return lib;
}

/**
 * YAML text of a plain value (no comments to keep) with js-yaml: block style, no line folding, no anchors, the same
 * bytes for the same value. For files hub writes whole, such as atlas's generated files, where the Document API's
 * node tree costs several times more.
 */
export function dumpPlainYaml(value: unknown): string {
  return jsYaml().dump(value, { lineWidth: -1, noRefs: true, schema: jsYaml().CORE_SCHEMA });
}

/**
 * Plain scalars typed exactly as the `yaml` package's YAML 1.2 core schema types them (its tests and regexes,
 * src: yaml/dist/schema/core), so both readers give the same value: `yes`/`no`/`on`/`off` stay strings, `0o17` is
 * 15, `1_000` is a string, `1e400` is Infinity.
 */
function coreSchema(): JsYaml.Schema {
  if (schema) return schema;
  const y = jsYaml();
  const no: typeof JsYaml.NOT_RESOLVED = y.NOT_RESOLVED;
  const scalar = <T>(
    tag: string,
    first: string[] | null,
    resolve: (s: string) => T | typeof JsYaml.NOT_RESOLVED,
  ) =>
    y.defineScalarTag<T>(`tag:yaml.org,2002:${tag}`, {
      implicit: true,
      implicitFirstChars: first,
      resolve: (s, explicit): T | typeof JsYaml.NOT_RESOLVED => (explicit ? y.NOT_RESOLVED : resolve(s)),
      identify: () => false,
    });
  const digits = [...'0123456789'];
  const nullTag = scalar('null', ['', '~', 'n', 'N'], (s) => (/^(?:~|[Nn]ull|NULL)?$/.test(s) ? null : no));
  const boolTag = scalar('bool', ['t', 'T', 'f', 'F'], (s) =>
    /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s) ? s[0] === 't' || s[0] === 'T' : no,
  );
  const intTag = scalar('int', ['-', '+', ...digits], (s) => {
    if (/^0o[0-7]+$/.test(s)) return Number.parseInt(s.slice(2), 8);
    if (/^[-+]?[0-9]+$/.test(s)) return Number.parseInt(s, 10);
    if (/^0x[0-9a-fA-F]+$/.test(s)) return Number.parseInt(s.slice(2), 16);
    return no;
  });
  const floatTag = scalar('float', ['-', '+', '.', ...digits], (s) => {
    if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s))
      return s.slice(-3).toLowerCase() === 'nan' ? Number.NaN : s[0] === '-' ? -Infinity : Infinity;
    if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s)) return Number.parseFloat(s);
    if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return Number.parseFloat(s);
    return no;
  });
  // String keys only: a key the `yaml` package would stringify its own way (`1:`, `~:`, `[a]:`) is not vouched for.
  const mapTag = y.defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
    create: () => ({}),
    identify: () => false,
    addPair: (map, key, value) => {
      if (typeof key !== 'string') return 'non-string key';
      if (key === '__proto__')
        Object.defineProperty(map, key, { value, enumerable: true, configurable: true, writable: true });
      else map[key] = value;
      return '';
    },
    has: (map, key) => typeof key === 'string' && Object.hasOwn(map, key),
    keys: (map) => Object.keys(map),
    get: (map, key) => map[key as string],
  });
  schema = y.FAILSAFE_SCHEMA.withTags(nullTag, boolTag, intTag, floatTag, mapTag);
  return schema;
}

const DOCUMENT_MARKER_RE = /^[ ]*(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm;

const INDENT_TAB_RE = /^[ ]*\t/m;

const EVENT = { DOCUMENT: 1, SEQUENCE: 2, MAPPING: 3, SCALAR: 4, ALIAS: 5, POP: 6 } as const;
const NONE = -1;

/**
 * The plain value of `text` when the fast reader can vouch that the `yaml` Document path gives the same value
 * and would not refuse it; undefined otherwise (the caller then takes the Document path, which reports the
 * error with its line). Never throws on input.
 *
 * It vouches only for the plain case: one document, no directives, no tags, string keys, unique keys, at most
 * `maxAliasCount` aliases and none inside an anchored collection (the Document path weighs nested aliases
 * differently), and the structural limits met, counted on the parser's events: nodes, entries of one list or
 * map, nesting, and the counted keys' entries (`depends_on`). The parser's own depth bound stops a deep file
 * before it recurses.
 */
export function fastYamlValue(
  text: string,
  limits: YamlLimits,
  opts: PrecheckOptions = {},
): { value: unknown } | undefined {
  const y = jsYaml();
  // Document markers: the two parsers split `...` and repeated or indented `---` into documents differently;
  // one `---` at the start of a line, starting the one document, is the only marker vouched for.
  const markers = text.match(DOCUMENT_MARKER_RE);
  if (markers && (markers.length > 1 || !markers[0]!.startsWith('---'))) return undefined;
  // A tab in indentation: YAML forbids it and the two parsers forgive different cases of it.
  if (INDENT_TAB_RE.test(text)) return undefined;
  let events: JsYaml.Event[];
  try {
    events = y.parseEvents(text, { maxDepth: Math.floor(limits.maxNodeDepth / 2) });
  } catch {
    return undefined;
  }
  if (!withinLimits(text, events, limits, opts, markers?.length ?? 0)) return undefined;
  try {
    const docs = y.constructFromEvents(events, {
      source: text,
      schema: coreSchema(),
      maxAliases: limits.maxAliasCount,
      maxTotalMergeKeys: 0,
    });
    if (docs.length > 1) return undefined;
    return { value: docs.length === 0 ? null : docs[0] };
  } catch {
    return undefined;
  }
}

/** One pass over the events: the structural limits, and the shapes the fast reader does not vouch for. */
function withinLimits(
  text: string,
  events: JsYaml.Event[],
  limits: YamlLimits,
  opts: PrecheckOptions,
  markers: number,
): boolean {
  const keyed = opts.keyedEntries ?? {};
  const keyedNames = Object.keys(keyed);
  const keyedTotals = new Map<string, number>();
  // Open collections: entries so far (a map's are counted per child, so twice its pairs), and the counted key
  // a list is the value of.
  const items: number[] = [];
  const isMap: boolean[] = [];
  const listKey: Array<string | undefined> = [];
  // The last mapping key seen at each level, while its value is pending.
  const pendingKey: Array<string | undefined> = [];
  let anchored = 0;
  const anchoredAt: boolean[] = [];
  let nodes = 0;
  let aliases = 0;
  let documents = 0;
  const maxEntries = limits.maxItems;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === EVENT.POP) {
      if (items.length === 0) continue;
      // The Document path counts an empty list under a counted key as one entry.
      const key = listKey[items.length - 1];
      if (key !== undefined && items[items.length - 1] === 0 && !countEntry(key)) return false;
      items.pop();
      isMap.pop();
      listKey.pop();
      pendingKey.pop();
      if (anchoredAt.pop()) anchored--;
      continue;
    }
    if (e.type === EVENT.DOCUMENT) {
      if (++documents > 1 || e.directives.length > 0 || e.explicitEnd) return false;
      if (markers > 0 && !e.explicitStart) return false;
      continue;
    }
    if (++nodes > limits.maxNodes) return false;
    // Count this node as an entry of its parent; a mapping's key decides what its value is counted as.
    const top = items.length - 1;
    let keyOfValue: string | undefined;
    if (top >= 0) {
      const n = ++items[top]!;
      if (isMap[top]) {
        if (n > maxEntries * 2) return false;
        if (n % 2 === 1) {
          pendingKey[top] =
            e.type === EVENT.SCALAR && keyedNames.length > 0
              ? keyedNames.find((k) => scalarIs(text, e, k))
              : undefined;
        } else {
          keyOfValue = pendingKey[top];
          pendingKey[top] = undefined;
        }
      } else {
        if (n > maxEntries) return false;
        const key = listKey[top];
        if (key !== undefined && !countEntry(key)) return false;
      }
    }
    if (e.type === EVENT.ALIAS) {
      if (++aliases > limits.maxAliasCount || anchored > 0) return false;
      continue;
    }
    if (e.tagStart !== NONE) return false;
    if (e.type === EVENT.SCALAR) continue;
    // A collection opens.
    if (items.length + 1 > limits.maxNodeDepth) return false;
    const hasAnchor = e.anchorStart !== NONE;
    if (hasAnchor) anchored++;
    anchoredAt.push(hasAnchor);
    items.push(0);
    isMap.push(e.type === EVENT.MAPPING);
    const counted = e.type === EVENT.SEQUENCE ? keyOfValue : undefined;
    listKey.push(counted);
    pendingKey.push(undefined);
  }
  return true;

  function countEntry(key: string): boolean {
    const n = (keyedTotals.get(key) ?? 0) + 1;
    keyedTotals.set(key, n);
    return n <= keyed[key]!.total;
  }
}

/** Whether a plain scalar event is exactly `word` (the Document path's lexer pass counts plain keys only). */
function scalarIs(text: string, e: JsYaml.Event, word: string): boolean {
  if (e.type !== EVENT.SCALAR || e.style !== 1) return false;
  return e.valueEnd - e.valueStart === word.length && text.startsWith(word, e.valueStart);
}
