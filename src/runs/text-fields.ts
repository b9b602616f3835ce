import { ValidationError } from '../infra/index.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/**
 * A free-text field checked: at most `max` characters and no control characters other than tab and newline (they
 * would garble a table or a terminal). Undefined passes through.
 */
export function checkText(value: string | undefined, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > max)
    throw new ValidationError(`${field}: ${value.length} characters; at most ${max}`, {
      field,
      value: `${value.slice(0, 80)}...`,
      rule: `max ${max} characters`,
    });
  if (CONTROL_RE.test(value))
    throw new ValidationError(`${field}: contains a control character`, {
      field,
      value: value.slice(0, 200),
      rule: 'no_control_characters',
    });
  return value;
}

/** Names (lanes, gates, executors' ids): one line, letters, digits and `.`, `_`, `-`, `:`, `/`. */
export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$/;

export function checkName(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!NAME_RE.test(value) || value.includes('..'))
    throw new ValidationError(
      `${field}: '${value.slice(0, 80)}' is not a valid name; use letters, digits, '.', '_', '-', ':' and '/' (at most 64)`,
      { field, value: value.slice(0, 200), rule: NAME_RE.source },
    );
  return value;
}
