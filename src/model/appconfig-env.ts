import { ValidationError } from '../infra/index.js';
import { redactSecret, redactUrlSecrets } from './appconfig-redact.js';
import { type AppConfig, appConfigSchema } from './appconfig-schema.js';
import { formatPath } from './yaml-source.js';

/** Environment variables as the entry point hands them over (usually `process.env`). */
export type AppConfigEnv = Readonly<Record<string, string | undefined>>;

interface EnvOverride {
  name: string;
  path: readonly string[];
  secret?: boolean;
  /** The key is a number: a variable of digits only is given to the schema as one. */
  number?: boolean;
}

/** Every HUB_* variable that overrides a config key, in the order they are applied. */
export const APPCONFIG_ENV_OVERRIDES: readonly EnvOverride[] = [
  { name: 'HUB_STATE_BACKEND', path: ['state', 'backend'] },
  { name: 'HUB_STATE_URL', path: ['state', 'url'] },
  { name: 'HUB_STATE_TOKEN', path: ['state', 'token'], secret: true },
  { name: 'HUB_STATE_ORG_ID', path: ['state', 'org_id'] },
  { name: 'HUB_STATE_WORKSPACE_ID', path: ['state', 'workspace_id'] },
  // The connection string carries credentials: the environment keeps them out of committed config.
  { name: 'HUB_STATE_MONGODB_URL', path: ['state', 'mongodb', 'url'] },
  { name: 'HUB_WORKSPACE_WORKTREES_PATH', path: ['workspace', 'worktrees_path'] },
  { name: 'HUB_WORKSPACE_CAMPAIGNS_PATH', path: ['workspace', 'campaigns_path'] },
  { name: 'HUB_MANIFEST_MAX_BYTES', path: ['workspace', 'manifest_max_bytes'], number: true },
  { name: 'HUB_API_VERSION', path: ['api_version'] },
  { name: 'HUB_SERVER_TOKEN', path: ['server', 'token'], secret: true },
];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Applies the HUB_* overrides to already file-validated config data (before defaults) and validates the result.
 * An empty variable counts as unset. A value that breaks a rule fails naming the variable, the value and the rule.
 */
export function applyAppConfigEnv(data: Obj, env: AppConfigEnv): { config: AppConfig; overrides: string[] } {
  const merged: Obj = structuredClone(data);
  const applied: EnvOverride[] = [];
  for (const o of APPCONFIG_ENV_OVERRIDES) {
    const value = env[o.name];
    if (value === undefined || value === '') continue;
    let parent = merged;
    for (const seg of o.path.slice(0, -1)) {
      if (!isObj(parent[seg])) parent[seg] = {};
      parent = parent[seg] as Obj;
    }
    parent[o.path[o.path.length - 1]!] = o.number && /^[0-9]+$/.test(value) ? Number(value) : value;
    applied.push(o);
  }
  const parsed = appConfigSchema().safeParse(merged);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((iss) => {
      const path = formatPath(iss.path as Array<string | number>);
      const o = applied.find((a) => formatPath([...a.path]) === path);
      const value = o ? env[o.name]! : undefined;
      const shown =
        value === undefined ? undefined : o?.secret ? redactSecret(value) : redactUrlSecrets(value);
      const rule = (iss as { params?: { rule?: string } }).params?.rule ?? `schema.${iss.code}`;
      return { variable: o?.name, path, value: shown, message: iss.message, rule };
    });
    const first = issues.find((i) => i.variable) ?? issues[0]!;
    const head = first.variable ? `${first.variable}='${first.value}' (${first.path})` : first.path;
    throw new ValidationError(`application config from environment: ${head}: ${first.message}`, {
      variable: first.variable,
      path: first.path,
      value: first.value,
      rule: first.rule,
      issues,
    });
  }
  return { config: parsed.data, overrides: applied.map((a) => a.name) };
}
