import type * as z from 'zod';

/**
 * Help text only the CLI shows, kept apart from a field's `.describe()` text. The description speaks to every
 * caller (MCP tool lists, the OpenAPI document) in JSON terms and as briefly as a model's context needs; the CLI
 * help may say more (its defaults, other flags by name) without costing an agent a token.
 */
const CLI_HELP = new WeakMap<z.ZodType, string>();

/** Gives `schema` help text for `--help` only; returns the schema itself. */
export function cliHelp<T extends z.ZodType>(schema: T, text: string): T {
  CLI_HELP.set(schema, text);
  return schema;
}

/** The CLI-only help of this very schema (not of what it wraps), if any. */
export function cliHelpOf(schema: z.ZodType): string | undefined {
  return CLI_HELP.get(schema);
}

/**
 * Fields the MCP tool list leaves out: aliases of a listed argument and fields kept for scripts and posted items
 * (a flag hub ignores, a record's own stamps). A call may still send them (the whole input schema validates every
 * call); listing them would only cost every agent tokens and offer two names for one thing.
 */
const UNLISTED = new WeakSet<z.ZodType>();

/** Leaves `schema`'s field out of the MCP tool list (the CLI and HTTP still take it); returns the schema itself. */
export function unlisted<T extends z.ZodType>(schema: T): T {
  UNLISTED.add(schema);
  return schema;
}

/** Whether this very schema is left out of the MCP tool list. */
export function isUnlisted(schema: z.ZodType): boolean {
  return UNLISTED.has(schema);
}
