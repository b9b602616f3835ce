import type * as z from 'zod';
import { checkJsonBounds, INPUT_BOUNDS, ValidationError } from '../infra/index.js';
import type { OpContext } from './context.js';
import type { AnyOperation } from './registry.js';

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur = input as Record<PropertyKey, unknown> | undefined;
  for (const k of path)
    cur = cur && typeof cur === 'object' ? (cur[k] as Record<PropertyKey, unknown>) : undefined;
  return cur;
}

/** Turns zod issues into one ValidationError naming each field, its value and the rule. */
export function inputError(_op: AnyOperation, err: z.ZodError, input: unknown): ValidationError {
  const issues = err.issues.map((iss) => {
    const field = iss.path.map(String).join('.') || '(input)';
    const value = valueAt(input, iss.path);
    const message =
      iss.code === 'unrecognized_keys' ? `unknown field(s) ${iss.keys.join(', ')}` : iss.message;
    return { field, message, rule: iss.code, ...(value === undefined ? {} : { value }) };
  });
  const first = issues[0]!;
  const shown = first.value === undefined ? '' : ` (got ${JSON.stringify(first.value)?.slice(0, 80)})`;
  // The field is named as every surface spells it; the operation id is internal and stays out of the message.
  return new ValidationError(`${first.field}: ${first.message}${shown}`, { issues });
}

/** Validates input once, checks the gate, runs the handler. Every surface calls this and nothing else. */
export async function invoke(op: AnyOperation, ctx: OpContext, rawInput: unknown): Promise<unknown> {
  // Before zod: zod, JSON.stringify and structuredClone recurse, so nothing deeper than the bound may reach them.
  checkJsonBounds(rawInput, INPUT_BOUNDS, op.id);
  const parsed = op.input.safeParse(rawInput ?? {});
  if (!parsed.success) throw inputError(op, parsed.error, rawInput);
  if (op.gate === 'active') ctx.workspace();
  return await op.handler(ctx, parsed.data);
}
