import { parseDuration } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';

/** Default TTL of claims and leases when none is given (the earlier product's lease default). */
export const DEFAULT_ACL_TTL = '30m';

/** Rule of agent ids: they name documents (`agents/<id>`) and worktree folders. */
export const AGENT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Controls, format characters (bidi overrides, zero-width spaces) and line or paragraph separators. */
const CONTROL_RE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** `U+000A` of a character. */
const codeOf = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** An id as shown in a message: quoted, long ones cut, every invisible character written as \uXXXX. */
function shownId(id: string): string {
  const cut = id.length > 80 ? `${id.slice(0, 80)}...` : id;
  return JSON.stringify(cut).replace(/[\p{Cc}\p{Cf}\p{Z}]/gu, (ch) =>
    ch === ' ' ? ch : `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

/**
 * Checks an id that names a folder or fills a branch name exactly as given (never trimmed: the value checked is
 * the value used). Whitespace around it, a control or format character or a line separator anywhere get a rule
 * of their own, so a caller sees why `'T1\n'` is refused; anything else outside AGENT_ID_RE gets that rule.
 */
function checkIdValue(id: string, field: string, what: string): string {
  const fail = (why: string, rule: string) =>
    new ValidationError(`${field}: ${shownId(id)} is not a valid ${what}: ${why}`, {
      field,
      value: id.length > 200 ? id.slice(0, 200) : id,
      rule,
    });
  const edge = /^\s|\s$/u.exec(id);
  if (edge)
    throw fail(
      `it ${edge.index === 0 ? 'starts' : 'ends'} with whitespace (${codeOf(edge[0])}); ids are used exactly as given, as folder and branch names`,
      'no_surrounding_whitespace',
    );
  const control = CONTROL_RE.exec(id);
  if (control)
    throw fail(
      `it contains the control, format or line-separator character ${codeOf(control[0])}`,
      'no_control_characters',
    );
  if (!AGENT_ID_RE.test(id))
    throw fail(
      "use letters, digits, '.', '_' and '-' (at most 128, starting with a letter or digit)",
      AGENT_ID_RE.source,
    );
  return id;
}

/** Checks an agent id against AGENT_ID_RE, exactly as given. */
export function checkAgentId(id: string, field = 'agent_id'): string {
  return checkIdValue(id, field, 'agent id');
}

/**
 * Checks a task id exactly as given: task ids name worktree folders and fill `{task_id}` of branch names, so they
 * follow the agent id rule (letters, digits, `.`, `_`, `-`; at most 128, starting with a letter or digit).
 */
export function checkTaskId(taskId: string, field = 'task_id'): string {
  return checkIdValue(taskId, field, 'task id');
}

/** A record that holds something until it is released or its TTL runs out. */
export interface Holding {
  status: string;
  /** ISO time the holding lapses unless renewed; absent for one that does not expire. */
  expires_at?: string | null;
}

/** True when `h` is active and not expired at `now`: the one test every ACL room uses. */
export function isLive(h: Holding, now: Date): boolean {
  if (h.status !== 'active') return false;
  if (h.expires_at === undefined || h.expires_at === null) return true;
  const t = Date.parse(h.expires_at);
  return Number.isNaN(t) || t > now.getTime();
}

/** `{ttl, expires_at}` of a holding taken or renewed at `now` for `ttl` (a duration such as `30m`). */
export function expiryOf(ttl: string, now: Date, field = 'ttl'): { ttl: string; expires_at: string } {
  return { ttl, expires_at: new Date(now.getTime() + parseDuration(ttl, field)).toISOString() };
}
