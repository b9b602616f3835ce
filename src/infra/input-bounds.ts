import { ValidationError } from './errors.js';

/**
 * Depth and size bounds of JSON values taken from outside (HTTP bodies, MCP arguments, stdin, stored documents).
 * JSON.parse copes with any depth, but JSON.stringify, structuredClone, zod and canonical JSON recurse: a value
 * deeper than these bounds must never reach them. The walk below is iterative for the same reason.
 */
export interface JsonBounds {
  /** Levels of nested objects and arrays; a scalar is 0, `{}` is 1. */
  depth: number;
  /** Bytes of the value as compact JSON (UTF-8; escape sequences counted as their characters). */
  bytes: number;
}

/** Nesting of one operation input: far beyond any real payload, far below what a recursive walk overflows on. */
export const MAX_INPUT_DEPTH = 64;
/** Bytes of one operation input as compact JSON: the HTTP body limit of operation routes (1 MiB). */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Nesting of a stored document: an input's, plus the levels a document wraps records in (list, record, field). */
export const MAX_DOCUMENT_DEPTH = MAX_INPUT_DEPTH + 8;
/** Bytes of one stored document as compact JSON: the HTTP body limit of document routes (8 MiB). */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

export const INPUT_BOUNDS: Readonly<JsonBounds> = Object.freeze({
  depth: MAX_INPUT_DEPTH,
  bytes: MAX_INPUT_BYTES,
});
export const DOCUMENT_BOUNDS: Readonly<JsonBounds> = Object.freeze({
  depth: MAX_DOCUMENT_DEPTH,
  bytes: MAX_DOCUMENT_BYTES,
});

/** Where and how a value broke its bounds. */
export interface BoundsViolation {
  rule: 'max_depth' | 'max_bytes';
  limit: number;
  /** Path of the value where the limit was crossed, e.g. `handoffs[0].payload.a`; `(input)` for the root. */
  field: string;
}

type Segment = string | number;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: Segment | undefined;
  /** Bytes already counted for this value by its list (one per item, so a huge list is refused early). */
  prepaid: number;
}

const IDENT_RE = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `objectives[0].title`; odd keys quoted (`["a b"]`); `(input)` for the root. */
export function jsonPath(segments: readonly Segment[]): string {
  if (segments.length === 0) return '(input)';
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENT_RE.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function segmentsOf(frame: Frame | undefined, last?: Segment): Segment[] {
  const out: Segment[] = last === undefined ? [] : [last];
  for (let f = frame; f && f.key !== undefined; f = f.parent) out.push(f.key);
  return out.reverse();
}

function scalarBytes(v: unknown): number {
  switch (typeof v) {
    case 'string':
      return Buffer.byteLength(v, 'utf8') + 2;
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 0;
    default:
      return v === null ? 4 : String(v).length;
  }
}

/** `prefix` followed by the path inside it: `handoffs[0]` + `payload.a` = `handoffs[0].payload.a`. */
function joinPath(prefix: string, segments: readonly Segment[]): string {
  if (prefix === '') return jsonPath(segments);
  if (segments.length === 0) return prefix;
  const rest = jsonPath(segments);
  return rest.startsWith('[') ? `${prefix}${rest}` : `${prefix}.${rest}`;
}

/**
 * The first place `value` breaks `bounds`, or undefined; `prefix` is the path of `value` itself (e.g. `items[]`). Iterative, and stops as soon as a bound is crossed: a
 * list's separators are counted before its items are visited, so a huge list is refused without walking it.
 */
export function findBoundsViolation(
  value: unknown,
  bounds: Readonly<JsonBounds>,
  prefix = '',
): BoundsViolation | undefined {
  const at = (frame: Frame | undefined, last?: Segment) => joinPath(prefix, segmentsOf(frame, last));
  const violation = (rule: BoundsViolation['rule'], limit: number, field: string): BoundsViolation => ({
    rule,
    limit,
    field,
  });
  if (value === null || typeof value !== 'object') {
    return scalarBytes(value) > bounds.bytes
      ? violation('max_bytes', bounds.bytes, at(undefined))
      : undefined;
  }
  let bytes = 0;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined, prepaid: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > bounds.depth) return violation('max_depth', bounds.depth, at(frame));
    const v = frame.value;
    bytes -= frame.prepaid;
    if (Array.isArray(v)) {
      // Brackets and commas, plus at least one byte per item: counted before the items are visited.
      bytes += 2 + Math.max(0, 2 * v.length - 1);
      if (bytes > bounds.bytes) return violation('max_bytes', bounds.bytes, at(frame));
      for (let i = v.length - 1; i >= 0; i--) {
        const item: unknown = v[i];
        if (item !== null && typeof item === 'object') {
          stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: i, prepaid: 1 });
        } else {
          // The one byte per item counted above stands for the item itself.
          bytes += Math.max(0, (item === undefined ? 4 : scalarBytes(item)) - 1);
          if (bytes > bounds.bytes) return violation('max_bytes', bounds.bytes, at(frame, i));
        }
      }
      continue;
    }
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj);
    bytes += 2 + Math.max(0, keys.length - 1);
    if (bytes > bounds.bytes) return violation('max_bytes', bounds.bytes, at(frame));
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      const item = obj[k];
      if (item === undefined) {
        // JSON.stringify leaves the key out; its comma was counted, which errs on the safe side.
        continue;
      }
      bytes += Buffer.byteLength(k, 'utf8') + 3;
      if (item !== null && typeof item === 'object') {
        stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: k, prepaid: 0 });
      } else bytes += scalarBytes(item);
      if (bytes > bounds.bytes) return violation('max_bytes', bounds.bytes, at(frame, k));
    }
  }
  return undefined;
}

/**
 * The first place `value` nests deeper than `depth`, or undefined: the bounds walk without the byte count, for
 * screening what is already stored (where size is not the question).
 */
export function findDepthViolation(value: unknown, depth: number, prefix = ''): BoundsViolation | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined, prepaid: 0 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > depth)
      return { rule: 'max_depth', limit: depth, field: joinPath(prefix, segmentsOf(frame)) };
    const v = frame.value as Record<string, unknown>;
    for (const k in v) {
      const item = v[k];
      if (item !== null && typeof item === 'object')
        stack.push({
          value: item,
          depth: frame.depth + 1,
          parent: frame,
          key: Array.isArray(v) ? Number(k) : k,
          prepaid: 0,
        });
    }
  }
  return undefined;
}

export const shortPath = (field: string) =>
  field.length <= 100 ? field : `${field.slice(0, 60)}…${field.slice(field.length - 30)}`;

/** The ValidationError of a violation: names the field, the rule and the value of the limit. */
export function boundsError(label: string, v: BoundsViolation): ValidationError {
  const what =
    v.rule === 'max_depth'
      ? `nests deeper than the limit of ${v.limit} levels (max_depth)`
      : `makes the input larger than the limit of ${v.limit} bytes of JSON (max_bytes)`;
  return new ValidationError(`${label}: ${shortPath(v.field)}: ${what}`, {
    field: v.field,
    rule: v.rule,
    limit: v.limit,
  });
}

/** Throws a ValidationError when `value` breaks `bounds`; `label` starts the message (the operation or document). */
export function checkJsonBounds(
  value: unknown,
  bounds: Readonly<JsonBounds>,
  label: string,
  prefix = '',
): void {
  const v = findBoundsViolation(value, bounds, prefix);
  if (v) throw boundsError(label, v);
}
