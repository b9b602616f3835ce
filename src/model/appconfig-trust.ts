import { delimiter, isAbsolute } from 'node:path';
import { RefusedError, ValidationError } from '../infra/index.js';
import type { AppConfigEnv } from './appconfig-env.js';
import { type AppConfig, appConfigSchema } from './appconfig-schema.js';
import { yaml } from './yaml-lib.js';
import type { YamlSource } from './yaml-source.js';

/**
 * Keys only a trusted config may set: the user config directory, a file the user names (`--appconfig`), or the
 * environment. A hub.config.yaml found in the workspace arrived with the workspace (a clone, a shared folder,
 * reviewed by nobody), so it may not name a command hub runs or widen what hub reaches (docs/decisions.md).
 */
export const TRUSTED_ONLY_KEYS: ReadonlyArray<{ key: string; path: readonly string[]; what: string }> = [
  { key: 'config.editor', path: ['config', 'editor'], what: 'the command the open action runs' },
  {
    key: 'coordination.worktree.post_create.command',
    path: ['coordination', 'worktree', 'post_create', 'command'],
    what: 'a command run after a worktree is created',
  },
  { key: 'merge.regenerate', path: ['merge', 'regenerate'], what: 'commands run in the merge worktree' },
  { key: 'merge.validators', path: ['merge', 'validators'], what: 'commands run to validate a merge' },
  {
    key: 'workspace.allowed_outside_paths',
    path: ['workspace', 'allowed_outside_paths'],
    what: 'folders outside the workspace whose repositories hub may read',
  },
  {
    key: 'workspace.manifest_max_bytes',
    path: ['workspace', 'manifest_max_bytes'],
    what: 'the manifest size limit (a cloned workspace would lift its own guard)',
  },
  {
    key: 'state.dynamodb.endpoint',
    path: ['state', 'dynamodb', 'endpoint'],
    what: "where hub sends DynamoDB requests signed with the user's AWS credentials",
  },
  {
    key: 'state.mongodb.url',
    path: ['state', 'mongodb', 'url'],
    what: "the MongoDB server hub connects to (its options can make the driver use the user's AWS credentials or read local key files)",
  },
  {
    key: 'state.events.retain_count',
    path: ['state', 'events', 'retain_count'],
    what: 'how many recorded events the shared events log keeps (a lower one erases history other agents rely on)',
  },
  {
    key: 'state.events.retain_days',
    path: ['state', 'events', 'retain_days'],
    what: 'how long the shared events log keeps recorded events (a lower one erases history other agents rely on)',
  },
  {
    key: 'server.allowed_hosts',
    path: ['server', 'allowed_hosts'],
    what: 'Host names the HTTP server accepts besides loopback (its DNS-rebinding guard)',
  },
  {
    key: 'server.token',
    path: ['server', 'token'],
    what: "the HTTP server's bearer token (a cloned workspace's author would know it)",
  },
];

/** The rule a workspace config breaks by setting a trusted-only key. */
export const WORKSPACE_CONFIG_RULE = 'workspace_config_trusted_key';
/** Absolute folders (separated by the platform's path delimiter) added to `workspace.allowed_outside_paths`. */
export const ALLOWED_OUTSIDE_ENV = 'HUB_ALLOWED_OUTSIDE_PATHS';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function getIn(data: Obj, path: readonly string[]): unknown {
  let cur: unknown = data;
  for (const seg of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

function setIn(data: Obj, path: readonly string[], value: unknown): void {
  let cur = data;
  for (const seg of path.slice(0, -1)) {
    if (!isObj(cur[seg])) cur[seg] = {};
    cur = cur[seg] as Obj;
  }
  cur[path[path.length - 1]!] = value;
}

let defaults: AppConfig | undefined;
/**
 * True when `data` sets the key to something other than its default (the default runs nothing new); an empty
 * string names nothing (an empty `server.token` means no token), so it sets nothing either.
 */
function setsKey(data: Obj, path: readonly string[]): boolean {
  const value = getIn(data, path);
  if (value === undefined || value === '') return false;
  defaults ??= appConfigSchema().parse({});
  return JSON.stringify(value) !== JSON.stringify(getIn(defaults as unknown as Obj, path));
}

function keyLine(src: YamlSource | undefined, path: readonly string[]): number | undefined {
  if (!src) return undefined;
  const parent = src.doc.getIn(path.slice(0, -1), true);
  if (!yaml().isMap(parent)) return undefined;
  const pair = parent.items.find((p) => yaml().isScalar(p.key) && p.key.value === path[path.length - 1]);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  return range ? src.lines.linePos(range[0]).line : undefined;
}

/**
 * Refuses a workspace config that sets a trusted-only key, naming each key, the file, its line and the rule,
 * and where the setting belongs instead.
 */
export function refuseTrustedKeys(
  data: Obj,
  src: YamlSource | undefined,
  file: string,
  userConfig: string,
): void {
  const found = TRUSTED_ONLY_KEYS.filter((k) => setsKey(data, k.path));
  if (found.length === 0) return;
  const issues = found.map((k) => ({
    path: k.key,
    line: keyLine(src, k.path),
    rule: WORKSPACE_CONFIG_RULE,
    message: `${k.key} (${k.what}) may not be set in a hub.config.yaml found in the workspace`,
  }));
  const first = issues[0]!;
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more: ${issues
          .slice(1)
          .map((i) => i.path)
          .join(', ')})`
      : '';
  throw new RefusedError(
    `application config ${file}${first.line ? `, line ${first.line}` : ''}: ${first.message}${more} ` +
      `(rule ${WORKSPACE_CONFIG_RULE}): a workspace you cloned could run commands as you or reach outside itself. ` +
      `Move the setting to your user config (${userConfig}), or pass --appconfig <file>.`,
    { file, key: first.path, line: first.line, rule: WORKSPACE_CONFIG_RULE, user_config: userConfig, issues },
  );
}

/** Copies the trusted-only keys a trusted config sets into `into` (a workspace config's data). */
export function overlayTrustedKeys(into: Obj, trusted: Obj): void {
  for (const k of TRUSTED_ONLY_KEYS) {
    const value = getIn(trusted, k.path);
    if (value !== undefined) setIn(into, k.path, structuredClone(value));
  }
}

/** Adds the folders of HUB_ALLOWED_OUTSIDE_PATHS (absolute only) to `workspace.allowed_outside_paths`. */
export function applyAllowedOutsideEnv(config: AppConfig, env: AppConfigEnv): boolean {
  const value = env[ALLOWED_OUTSIDE_ENV];
  if (!value) return false;
  const list = config.workspace.allowed_outside_paths;
  for (const p of value.split(delimiter).filter(Boolean)) {
    if (!isAbsolute(p)) {
      throw new ValidationError(`${ALLOWED_OUTSIDE_ENV}: '${p}' is not an absolute path`, {
        variable: ALLOWED_OUTSIDE_ENV,
        value: p,
        rule: 'absolute_path',
      });
    }
    if (!list.includes(p)) list.push(p);
  }
  return true;
}

/** The rule a workspace config breaks by naming the state server a user-held token would be sent to. */
export const STATE_URL_TRUST_RULE = 'state_url_trusted';

/**
 * Refuses to send the user's own bearer token (HUB_STATE_TOKEN) to a state server that only a workspace config
 * names: a cloned workspace could otherwise collect the token by naming its own server. The workspace may still
 * name a team server (without a token, or with the token the same file carries), and the user trusts its URL by
 * setting HUB_STATE_URL (or using their own config). Returns the refusal, or undefined when nothing is exposed.
 */
export function stateTokenExposure(loaded: {
  trusted: boolean;
  path?: string;
  raw: Record<string, unknown>;
  overrides: readonly string[];
  config: AppConfig;
}): RefusedError | undefined {
  if (loaded.trusted || loaded.config.state.backend !== 'http') return undefined;
  if (!loaded.overrides.includes('HUB_STATE_TOKEN') || loaded.overrides.includes('HUB_STATE_URL'))
    return undefined;
  if (getIn(loaded.raw, ['state', 'url']) === undefined) return undefined;
  return new RefusedError(
    `state.url in ${loaded.path ?? 'the workspace config'} came with the workspace, so hub will not send it your HUB_STATE_TOKEN; ` +
      'to use that server, set HUB_STATE_URL to its URL (or put state.url in your user config)',
    {
      field: 'state.url',
      file: loaded.path ?? null,
      variable: 'HUB_STATE_TOKEN',
      rule: STATE_URL_TRUST_RULE,
    },
  );
}
