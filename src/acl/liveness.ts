import { parseDuration } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';

/** Default TTL of claims and leases when none is given (the earlier product's lease default). */
export const DEFAULT_ACL_TTL = '30m';

/** Rule of agent ids: they name documents (`agents/<id>`) and worktree folders. */
export const AGENT_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Checks an agent id against AGENT_ID_RE. */
export function checkAgentId(id: string, field = 'agent_id'): string {
  if (!AGENT_ID_RE.test(id))
    throw new ValidationError(
      `${field}: '${id}' is not a valid agent id; use letters, digits, '.', '_' and '-' (at most 128, starting with a letter or digit)`,
      { field, value: id, rule: AGENT_ID_RE.source },
    );
  return id;
}

/**
 * Checks a task id (trimmed): task ids name worktree folders and fill `{task_id}` of branch names, so they follow
 * the agent id rule (letters, digits, `.`, `_`, `-`; at most 128, starting with a letter or digit).
 */
export function checkTaskId(taskId: string, field = 'task_id'): string {
  const id = taskId.trim();
  if (!AGENT_ID_RE.test(id))
    throw new ValidationError(
      `${field}: '${id.length > 80 ? `${id.slice(0, 80)}...` : id}' is not a valid task id; use letters, digits, '.', '_' and '-' (at most 128, starting with a letter or digit)`,
      { field, value: id.slice(0, 200), rule: AGENT_ID_RE.source },
    );
  return id;
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
