import { sha256Hex } from '../infra/index.js';

/** Canonical JSON: object keys sorted, no whitespace; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** `"` + SHA-256 hex of the canonical JSON + `"`; undefined for an empty (absent) document. */
export function etagOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return `"${sha256Hex(canonicalJson(value))}"`;
}

/** The If-Match a first write sends for a document that does not exist yet. */
export const EMPTY_ETAG = '""';
