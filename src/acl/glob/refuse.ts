import { ValidationError } from '../../infra/index.js';

/** Echoed values are cut to this length so that a huge pattern does not come back whole in an error. */
const ECHO_MAX = 256;

export function echo(value: unknown): unknown {
  return typeof value === 'string' && value.length > ECHO_MAX ? `${value.slice(0, ECHO_MAX)}…` : value;
}

/** The ValidationError for a refused pattern: the message names the field, the value and the rule. */
export function globRefusal(field: string, value: unknown, rule: string, reason: string): ValidationError {
  const shown = typeof value === 'string' ? JSON.stringify(echo(value)) : String(value);
  return new ValidationError(`${field} ${shown} is refused: ${reason} (rule ${rule})`, {
    field,
    value: echo(value),
    rule,
  });
}
