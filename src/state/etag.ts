import { sha256Hex } from '../infra/index.js';

function scalarJson(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return JSON.stringify(value) ?? 'null';
}

/** An object or array being written: its sorted keys (objects) and the next position. */
interface Frame {
  value: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  next: number;
}

function open(value: object): { frame: Frame; text: string } {
  if (Array.isArray(value)) return { frame: { value, keys: undefined, next: 0 }, text: '[' };
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return { frame: { value: obj, keys, next: 0 }, text: '{' };
}

/** Below this depth the recursive writer is safe (and twice as fast); deeper subtrees go to the iterative one. */
const RECURSION_DEPTH = 256;

function recursive(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') return scalarJson(value);
  if (depth >= RECURSION_DEPTH) return iterative(value);
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : recursive(v, depth + 1))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${recursive(obj[k], depth + 1)}`).join(',')}}`;
}

/** Set by sortKeys when an object has a key that is an array index: its own order cannot be chosen. */
let indexKey = false;

/**
 * JSON.stringify's replacer that gives each object its keys sorted: objects already sorted as they are, others as
 * a sorted copy (null prototype, so a `__proto__` key stays a key). An object with an array-index key ("2", "10")
 * is enumerated in numeric order whatever its insertion order, so it is flagged and the whole value goes the
 * written-out way.
 */
function sortKeys(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57 && INDEX_RE.test(k)) indexKey = true;
    if (i > 0 && keys[i - 1]! > k) sorted = false;
  }
  if (sorted || indexKey) return v;
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of keys.sort()) out[k] = obj[k];
  return out;
}

const INDEX_RE = /^(?:0|[1-9]\d{0,9})$/;

/**
 * Canonical JSON: object keys sorted, no whitespace; arrays keep their order. Native JSON.stringify with a
 * key-sorting replacer (about twice as fast as writing it out: every write hashes its whole document); a value
 * with an array-index key, or too deep for the native writer, is written out, and past RECURSION_DEPTH without
 * recursion, so a document of any depth (one written by an older build, say) gets its ETag.
 */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    indexKey = false;
    try {
      const text = JSON.stringify(value, sortKeys);
      if (!indexKey) return text;
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
  }
  return recursive(value, 0);
}

/** canonicalJson without recursion. */
function iterative(value: unknown): string {
  if (value === null || typeof value !== 'object') return scalarJson(value);
  const first = open(value);
  const out: string[] = [first.text];
  const stack: Frame[] = [first.frame];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    let child: unknown;
    if (f.keys === undefined) {
      const arr = f.value as unknown[];
      if (f.next === arr.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (f.next > 0) out.push(',');
      child = arr[f.next++];
      if (child === undefined) child = null;
    } else {
      if (f.next === f.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const k = f.keys[f.next++]!;
      out.push(f.next > 1 ? `,${JSON.stringify(k)}:` : `${JSON.stringify(k)}:`);
      child = (f.value as Record<string, unknown>)[k];
    }
    if (child === null || typeof child !== 'object') out.push(scalarJson(child));
    else {
      const o = open(child);
      out.push(o.text);
      stack.push(o.frame);
    }
  }
  return out.join('');
}

/** `"` + SHA-256 hex of the canonical JSON + `"`; undefined for an empty (absent) document. */
export function etagOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return `"${sha256Hex(canonicalJson(value))}"`;
}

/** The If-Match a first write sends for a document that does not exist yet. */
export const EMPTY_ETAG = '""';
