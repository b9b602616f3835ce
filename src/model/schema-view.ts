import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod';
import { appConfigSchema } from './appconfig-schema.js';
import { manifestSchemas } from './manifest-schema.js';

/**
 * The JSON Schema of a file, walked to annotate values (config tree) and to drop defaults (minimal preview). The
 * public JSON Schema form is read rather than zod's internals: it has the defaults, types, enums and descriptions
 * as plain data, and is what `schemas/` publishes.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
}

export type SchemaFile = 'manifest' | 'appconfig';

const cache = new Map<SchemaFile, JsonSchema>();

/** The JSON Schema (input side: what a file may say) of the manifest or the application config, built once. */
export function jsonSchemaOf(file: SchemaFile): JsonSchema {
  let js = cache.get(file);
  if (!js) {
    const schema = file === 'manifest' ? manifestSchemas().ManifestSchema : appConfigSchema();
    js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    cache.set(file, js);
  }
  return js;
}

/** The JSON type of a value, in JSON Schema's words. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typesOf(js: JsonSchema): string[] {
  if (js.type !== undefined) return Array.isArray(js.type) ? js.type : [js.type];
  if (js.properties || js.additionalProperties) return ['object'];
  if (js.items) return ['array'];
  return [];
}

function accepts(js: JsonSchema, type: string): boolean {
  const types = typesOf(js);
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** The branch of a union the value belongs to (by JSON type); the schema itself when it is no union. */
export function branchFor(js: JsonSchema, value: unknown): JsonSchema {
  const branches = js.anyOf ?? js.oneOf;
  if (!branches) return js;
  if (value === undefined) return js;
  const type = jsonTypeOf(value);
  const hit = branches.find((b) => accepts(b, type));
  return hit ? { ...hit, description: hit.description ?? js.description, default: js.default } : js;
}

/** The schema's type as a word: `string`, `object`, `array`, `map` (a record), `enum`, or `a | b` for a union. */
export function typeName(js: JsonSchema): string {
  const branches = js.anyOf ?? js.oneOf;
  if (branches) return [...new Set(branches.map(typeName))].join(' | ');
  if (js.enum) return 'enum';
  if (js.const !== undefined) return 'const';
  const types = typesOf(js);
  if (types.length === 1 && types[0] === 'object' && !js.properties && js.additionalProperties) return 'map';
  return types.length > 0 ? types.join(' | ') : 'any';
}

/** The schema of one key of an object, or of an item of a list; undefined where the schema says nothing. */
export function childSchema(js: JsonSchema, key: string | number): JsonSchema | undefined {
  if (typeof key === 'number') return js.items;
  if (js.properties && Object.hasOwn(js.properties, key)) return js.properties[key];
  return typeof js.additionalProperties === 'object' ? js.additionalProperties : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The value without the fields that equal their schema default (recursively: a mapping whose fields were all
 * defaults equals its own default `{}` and goes too). What is left is what the file has to say.
 */
export function withoutDefaults(value: unknown, js: JsonSchema): unknown {
  const s = branchFor(js, value);
  if (Array.isArray(value)) return s.items ? value.map((v) => withoutDefaults(v, s.items!)) : value;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const child = childSchema(s, k);
    if (!child) {
      out[k] = v;
      continue;
    }
    const kept = withoutDefaults(v, child);
    if (child.default !== undefined && isDeepStrictEqual(kept, withoutDefaults(child.default, child)))
      continue;
    out[k] = kept;
  }
  return out;
}
