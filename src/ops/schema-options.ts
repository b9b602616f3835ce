import type * as z from 'zod';
import { cliHelpOf } from './cli-help.js';

export type OptionKind = 'string' | 'number' | 'boolean' | 'enum' | 'list' | 'json';

export interface OptionSpec {
  field: string;
  flag: string;
  kind: OptionKind;
  required: boolean;
  description: string;
  choices?: string[];
  defaultValue?: unknown;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  defaultValue?: unknown;
  options?: unknown[];
  entries?: Record<string, unknown>;
}

const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;

/** Help of one schema level: its CLI-only text, else its description. */
const helpOf = (s: z.ZodType) => cliHelpOf(s) ?? s.description;

/** Peels optional/default/nullable wrappers, keeping the first help text found (CLI-only text first). */
function unwrap(schema: z.ZodType): {
  base: z.ZodType;
  optional: boolean;
  description?: string;
  defaultValue?: unknown;
} {
  let cur = schema;
  let optional = false;
  let description = helpOf(cur);
  let defaultValue: unknown;
  for (;;) {
    const d = defOf(cur);
    if (d.type === 'optional' || d.type === 'nullable') optional = true;
    else if (d.type === 'default') {
      optional = true;
      defaultValue =
        typeof d.defaultValue === 'function' ? (d.defaultValue as () => unknown)() : d.defaultValue;
    } else if (d.type === 'pipe' && d.in) {
      cur = d.in;
      description ??= helpOf(cur);
      continue;
    } else break;
    cur = d.innerType!;
    description ??= helpOf(cur);
  }
  return { base: cur, optional, description, defaultValue };
}

export const kebab = (field: string) => field.replace(/_/g, '-');

/** Derives command-line options from an operation's input schema, so flags and help never drift from it. */
/** True for a list of strings: as the last positional argument it takes every remaining word (`paths...`). */
export function isStringList(schema: z.ZodType): boolean {
  const d = defOf(unwrap(schema).base);
  return d.type === 'array' && Boolean(d.element) && defOf(unwrap(d.element!).base).type === 'string';
}

export function optionsFromSchema(shape: Record<string, z.ZodType>, positional: string[]): OptionSpec[] {
  const specs: OptionSpec[] = [];
  for (const [field, schema] of Object.entries(shape)) {
    if (positional.includes(field)) continue;
    const { base, optional, description, defaultValue } = unwrap(schema);
    const d = defOf(base);
    let kind: OptionKind = 'json';
    let choices: string[] | undefined;
    if (d.type === 'string') kind = 'string';
    else if (d.type === 'number' || d.type === 'int') kind = 'number';
    else if (d.type === 'boolean') kind = 'boolean';
    else if (d.type === 'enum') {
      kind = 'enum';
      choices = Object.values(d.entries ?? {}).map(String);
    } else if (
      d.type === 'union' &&
      (d as unknown as { options: z.ZodType[] }).options.some((o) => defOf(o).type === 'number')
    ) {
      kind = 'number';
    } else if (d.type === 'array' && d.element && defOf(unwrap(d.element).base).type === 'string')
      kind = 'list';
    specs.push({
      field,
      flag: kebab(field),
      kind,
      required: !optional,
      description: description ?? '',
      choices,
      defaultValue,
    });
  }
  return specs;
}

/** Whether a positional field is required by the schema. */
export function isRequired(schema: z.ZodType): boolean {
  return !unwrap(schema).optional;
}

export function describeField(schema: z.ZodType): string {
  return unwrap(schema).description ?? '';
}
