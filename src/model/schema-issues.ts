import type * as z from 'zod';
import { didYouMean, suggestionText } from '../infra/index.js';
import { branchFor, childSchema, type JsonSchema, jsonSchemaOf, type SchemaFile } from './schema-view.js';
import { formatPath, positionOf, type SourceIssue, type YamlSource } from './yaml-source.js';

type Path = Array<string | number>;

/** At most this many known keys are named in `expected`. */
const KNOWN_KEYS_LIMIT = 30;

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function valueAt(data: unknown, path: Path): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

/** The JSON Schema at `path`, the union branch chosen by the value's type at each step; undefined off the schema. */
function schemaAt(root: JsonSchema, data: unknown, path: Path): JsonSchema | undefined {
  let js: JsonSchema = root;
  let value = data;
  for (const seg of path) {
    const child = childSchema(branchFor(js, value), seg);
    if (!child) return undefined;
    js = child;
    value =
      isObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[seg] : undefined;
  }
  return branchFor(js, value);
}

/** Line and column of `key` itself in the mapping at `parent` (the mapping's when the key is not found). */
function keyPosition(src: YamlSource | undefined, parent: Path, key: string) {
  if (!src) return undefined;
  const node = src.doc.getIn(parent, true) as { items?: Array<{ key?: unknown }> } | undefined;
  const pair = node?.items?.find((p) => (p.key as { value?: unknown } | undefined)?.value === key);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  if (range) {
    const p = src.lines.linePos(range[0]);
    return { line: p.line, column: p.col };
  }
  return positionOf(src, parent);
}

/**
 * zod issues of a file (`manifest` or `appconfig`) as issues a person can act on: an unknown key at its own line
 * with the nearest known key (`suggestions`) and the keys that fit there (`expected`); a missing required key by
 * name, with what it takes; a misspelt required key once (the unknown key, naming the key it should be), not
 * also as a missing value. Every other issue keeps zod's message, at its path and line.
 */
export function schemaIssues(
  err: z.ZodError,
  src: YamlSource | undefined,
  file: SchemaFile,
  data: unknown,
): SourceIssue[] {
  const root = jsonSchemaOf(file);
  // Missing required keys by parent path, so that a misspelling of one is reported once, as the misspelling.
  const missing = new Map<string, { key: string; expected: string }>();
  for (const iss of err.issues) {
    const path = iss.path as Path;
    if (iss.code !== 'invalid_type' || path.length === 0) continue;
    const parent = path.slice(0, -1);
    const key = path[path.length - 1];
    const holder = valueAt(data, parent);
    if (typeof key === 'string' && isObject(holder) && !(key in holder))
      missing.set(formatPath([...parent, key]), { key, expected: TYPE_WORDS[iss.expected] ?? iss.expected });
  }
  // A missing key that an unknown key of the same mapping is a misspelling of is reported with that key.
  const merged = new Set<string>();
  const misspelt = (path: Path, suggestions: string[]) => {
    for (const s of suggestions) {
      const m = missing.get(formatPath([...path, s]));
      if (m) return m;
    }
    return undefined;
  };
  for (const iss of err.issues) {
    if (iss.code !== 'unrecognized_keys') continue;
    const path = iss.path as Path;
    const known = Object.keys(schemaAt(root, data, path)?.properties ?? {});
    for (const key of iss.keys) {
      const m = misspelt(path, didYouMean(key, known));
      if (m) merged.add(formatPath([...path, m.key]));
    }
  }
  const out: SourceIssue[] = [];
  for (const iss of err.issues) {
    const path = iss.path as Path;
    if (iss.code === 'unrecognized_keys') {
      const js = schemaAt(root, data, path);
      const known = Object.keys(js?.properties ?? {});
      for (const key of iss.keys) {
        const suggestions = didYouMean(key, known);
        const required = misspelt(path, suggestions);
        const expected =
          known.length > 0
            ? `a key of this mapping: ${known.slice(0, KNOWN_KEYS_LIMIT).join(', ')}${known.length > KNOWN_KEYS_LIMIT ? ', ...' : ''}`
            : undefined;
        const pos = keyPosition(src, path, key);
        out.push({
          path: formatPath([...path, key]),
          line: pos?.line,
          column: pos?.column,
          message:
            `unknown key '${key}'${suggestionText(suggestions)}` +
            (required
              ? ` ('${required.key}' is required: ${required.expected})`
              : suggestions.length === 0 && expected
                ? ` (${expected})`
                : ''),
          rule: 'schema.unrecognized_keys',
          key,
          suggestions,
          ...(expected ? { expected } : {}),
        });
      }
      continue;
    }
    const where = formatPath(path);
    const need = missing.get(where);
    if (need && iss.code === 'invalid_type') {
      if (merged.has(where)) continue;
      const pos = src ? positionOf(src, path) : undefined;
      out.push({
        path: where,
        line: pos?.line,
        column: pos?.column,
        message: `missing required key '${need.key}' (${need.expected})`,
        rule: 'schema.missing_key',
        key: need.key,
        expected: need.expected,
      });
      continue;
    }
    const pos = src ? positionOf(src, path) : undefined;
    out.push({
      path: where,
      line: pos?.line,
      column: pos?.column,
      message: iss.message,
      rule: `schema.${iss.code}`,
    });
  }
  // Issues in the order of the file, as a reader goes through it.
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
