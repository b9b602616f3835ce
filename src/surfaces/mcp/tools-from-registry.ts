import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { type AnyOperation, isUnlisted } from '../../ops/index.js';

/**
 * JSON Schema keywords that tell a model nothing it needs (they only cost tokens): what zod emits for unbounded
 * numbers and records, the lower bounds no model crosses (`minLength: 1`: it leaves an argument out rather than
 * send ""; `minimum` 0 or 1 of counts, pages and offsets), `default: false` (an absent flag is off), the top-level
 * `additionalProperties: false` (a model sends the listed arguments), and the guards against hostile input no
 * honest call comes near: `maxLength` 100 or more, `maxItems` 50 or more, `maximum` 1000 or more (the ceilings of
 * pages and counts). The server validates every call with the whole schema anyway: an empty string, a negative
 * count, a page over its ceiling or an unknown argument is refused with -32602 naming the field and the rule.
 */
function prune(node: unknown, top = false): unknown {
  if (Array.isArray(node)) return node.map((n) => prune(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === '$schema') continue;
    if (k === 'minLength' && v === 1) continue;
    if (k === 'minimum' && (v === 0 || v === 1)) continue;
    if (k === 'default' && v === false) continue;
    if (top && k === 'additionalProperties' && v === false) continue;
    if (
      (k === 'maxLength' && typeof v === 'number' && v >= 100) ||
      (k === 'maxItems' && typeof v === 'number' && v >= 50) ||
      (k === 'maximum' && typeof v === 'number' && v >= 1000) ||
      (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)
    )
      continue;
    if (k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') continue;
    if (k === 'additionalProperties' && v && typeof v === 'object' && Object.keys(v).length === 0) continue;
    out[k] = prune(v);
  }
  return out;
}

/** The input JSON Schema of an operation, as an MCP client sees it: its fields but the unlisted ones. */
export function inputSchemaOf(op: AnyOperation): Tool['inputSchema'] {
  const schema = prune(z.toJSONSchema(op.input, { io: 'input' }), true) as Tool['inputSchema'];
  const shape = (op.input as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const hidden = Object.keys(shape).filter((k) => isUnlisted(shape[k]!));
  if (hidden.length === 0 || !schema.properties) return { ...schema, type: 'object' };
  const properties = Object.fromEntries(
    Object.entries(schema.properties).filter(([k]) => !hidden.includes(k)),
  );
  const required = schema.required?.filter((k) => !hidden.includes(k));
  return { ...schema, type: 'object', properties, ...(required ? { required } : {}) };
}

/**
 * Behaviour hints, leaving out what the MCP defaults already say (readOnlyHint false, idempotentHint false): a
 * read-only tool is only `readOnlyHint: true` (the other two mean nothing then); a writing tool always states
 * destructiveHint, whose default is true.
 */
export function annotationsOf(op: AnyOperation): NonNullable<Tool['annotations']> {
  const a = op.attributes;
  if (a.readOnly) return { readOnlyHint: true };
  return { destructiveHint: a.destructive, ...(a.idempotent ? { idempotentHint: true } : {}) };
}

/** The MCP tool of one operation: name, what it does and when to use it, input schema and behaviour hints. */
export function toolOf(op: AnyOperation): Tool {
  const mcp = op.mcp!;
  return {
    name: mcp.tool,
    description: `${op.summary} ${mcp.when}`,
    inputSchema: inputSchemaOf(op),
    annotations: annotationsOf(op),
  };
}

/** Operations that have an MCP binding, in registry order. */
export function mcpOperations(ops: readonly AnyOperation[]): AnyOperation[] {
  return ops.filter((op) => op.mcp);
}
