import { ValidationError } from '../infra/index.js';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_RE = /^(\d+)([smhd])?$/;
/** Longest TTL accepted; a longer lease is almost certainly a typo. */
export const MAX_DURATION_MS = 365 * UNIT_MS.d;
export const DURATION_RULE =
  'digits with an optional unit s, m, h or d (30m, 90s, 2h, 1d; plain digits are seconds)';

/** Parses a TTL such as `30m` into milliseconds; anything else is a ValidationError naming the value and rule. */
export function parseDuration(value: string, field = 'ttl'): number {
  const m = DURATION_RE.exec(value.trim());
  if (!m) {
    throw new ValidationError(`${field}: '${value}' is not a duration; use ${DURATION_RULE}`, {
      field,
      value,
      rule: DURATION_RULE,
    });
  }
  const ms = Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS];
  if (ms <= 0 || ms > MAX_DURATION_MS) {
    throw new ValidationError(
      `${field}: '${value}' is out of range; a duration is more than 0 and at most 365d`,
      {
        field,
        value,
        rule: 'duration_range',
      },
    );
  }
  return ms;
}
