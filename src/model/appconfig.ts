import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type * as z from 'zod';
import { NotFoundError, rememberSecret, sha256Hex, writeFileAtomicSync } from '../infra/index.js';
import { type AppConfigEnv, applyAppConfigEnv } from './appconfig-env.js';
import { secretValues } from './appconfig-redact.js';
import { type AppConfig, appConfigSchema } from './appconfig-schema.js';
import {
  ALLOWED_OUTSIDE_ENV,
  applyAllowedOutsideEnv,
  overlayTrustedKeys,
  refuseTrustedKeys,
} from './appconfig-trust.js';
import { throwIssues, zodIssues } from './manifest-file.js';
import { readUtf8File } from './utf8-file.js';
import { yaml } from './yaml-lib.js';
import { formatPath, parseYamlSource, type SourceIssue, type YamlSource, yamlToJs } from './yaml-source.js';

export const APPCONFIG_WHAT = 'application config';
/** Workspace file names, in lookup order. */
export const APPCONFIG_FILENAMES = ['hub.config.yaml', 'hub.config.yml'] as const;
/** File names inside the user config directory, in lookup order. */
export const USER_APPCONFIG_FILENAMES = ['config.yml', 'config.yaml'] as const;

export type AppConfigSource = 'explicit' | 'workspace' | 'user' | 'default';

export interface AppConfigLocation {
  /** Absolute path of the file; absent when the bundled defaults apply. */
  path?: string;
  source: AppConfigSource;
}

/** A legacy key found on load; an empty `to` means the key was dropped. */
export interface AppConfigLegacy {
  path: string;
  from: string;
  to: string;
  line?: number;
}

export interface LoadedAppConfig extends AppConfigLocation {
  /** Defaults and environment overrides applied. */
  config: AppConfig;
  /** What the file said, before legacy normalization and defaults (`{}` without a file). */
  raw: Record<string, unknown>;
  legacy: AppConfigLegacy[];
  /** Names of the HUB_* variables that took effect. */
  overrides: string[];
  /**
   * False for a hub.config.yaml found in the workspace (it came with the workspace); such a file may not set the
   * trusted-only keys (appconfig-trust.ts), which then come from the user config.
   */
  trusted: boolean;
  /** The user config the trusted-only keys were taken from, when a workspace config is in effect. */
  trustedKeysFrom?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The user config directory: `HUB_CONFIG_DIR` when set, else the platform's config dir for `hub`. */
export function defaultUserConfigDir(env: AppConfigEnv): string {
  const dir = env.HUB_CONFIG_DIR;
  if (dir) return dir;
  return envPaths('hub', { suffix: '' }).config;
}

/**
 * Finds the application config: an explicit path, else `hub.config.yaml` / `hub.config.yml` in the manifest root
 * (or `cwd`), else `config.yml` / `config.yaml` in the user config dir, else the bundled defaults.
 */
export function locateAppConfig(opts: {
  cwd: string;
  manifestRoot?: string;
  explicit?: string;
  userConfigDir: string;
}): AppConfigLocation {
  if (opts.explicit) {
    const p = resolve(opts.cwd, opts.explicit);
    if (!isFile(p)) throw new NotFoundError(`${APPCONFIG_WHAT} not found: ${p}`, { path: p, rule: 'exists' });
    return { path: p, source: 'explicit' };
  }
  const root = resolve(opts.cwd, opts.manifestRoot ?? '.');
  for (const name of APPCONFIG_FILENAMES) {
    const p = join(root, name);
    if (isFile(p)) return { path: p, source: 'workspace' };
  }
  const user = userAppConfigPath(opts.cwd, opts.userConfigDir);
  return user ? { path: user, source: 'user' } : { source: 'default' };
}

/** Defaults of the shared-state ids: org `_`, workspace the first 16 hex chars of sha256(absolute root). */
export function stateDefaults(root: string): { org_id: string; workspace_id: string } {
  return { org_id: '_', workspace_id: sha256Hex(resolve(root)).slice(0, 16) };
}

/** The bearer token of remote state: `token`, or `api_key` when the token is empty. */
export function stateBearerToken(state: AppConfig['state']): string | undefined {
  return state.token || state.api_key || undefined;
}

function lineOf(src: YamlSource | undefined, key: string): number | undefined {
  const root = src?.doc.contents;
  if (!src || !yaml().isMap(root)) return undefined;
  const pair = root.items.find((p) => yaml().isScalar(p.key) && p.key.value === key);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  return range ? src.lines.linePos(range[0]).line : undefined;
}

/** `key:` with no value means "not set": a section whose children are all commented out gets its defaults. */
function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) value.forEach(dropNulls);
  else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null) delete value[k];
      else dropNulls(v);
    }
  }
  return value;
}

/** Normalizes legacy keys in place: drops top-level `version`, moves `default_profile` to `agents.default_profile`. */
export function normalizeAppConfigLegacy(data: Obj, src?: YamlSource): AppConfigLegacy[] {
  const out: AppConfigLegacy[] = [];
  if ('version' in data) {
    delete data.version;
    out.push({ path: 'version', from: 'version', to: '', line: lineOf(src, 'version') });
  }
  if (
    'default_profile' in data &&
    (data.agents === undefined || data.agents === null || isObj(data.agents))
  ) {
    const agents: Obj = isObj(data.agents) ? data.agents : {};
    // The current spelling wins when both are present.
    if (agents.default_profile === undefined) agents.default_profile = data.default_profile;
    data.agents = agents;
    delete data.default_profile;
    out.push({
      path: 'default_profile',
      from: 'default_profile',
      to: 'agents.default_profile',
      line: lineOf(src, 'default_profile'),
    });
  }
  return out;
}

/** zod issues with YAML paths and lines; an unknown key is reported at its own path and line, one issue per key. */
export function appConfigIssues(err: z.ZodError, src: YamlSource | undefined): SourceIssue[] {
  const base = zodIssues(err, src);
  const out: SourceIssue[] = [];
  err.issues.forEach((iss, i) => {
    if (iss.code !== 'unrecognized_keys') {
      out.push(base[i]!);
      return;
    }
    const parent = iss.path as Array<string | number>;
    for (const key of iss.keys) {
      const node = src?.doc.getIn(parent, true);
      const pair = yaml().isMap(node)
        ? node.items.find((p) => yaml().isScalar(p.key) && p.key.value === key)
        : undefined;
      const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
      const pos = range && src ? src.lines.linePos(range[0]) : undefined;
      out.push({
        path: formatPath([...parent, key]),
        line: pos?.line ?? base[i]!.line,
        column: pos?.col ?? base[i]!.column,
        message: `unknown key '${key}'`,
        rule: 'schema.unrecognized_keys',
      });
    }
  });
  return out;
}

/** Parses config text into plain data with legacy keys normalized; throws ValidationError on bad YAML. */
export function readAppConfigData(
  text: string,
  file: string,
): { src: YamlSource; raw: Obj; data: Obj; legacy: AppConfigLegacy[] } {
  const src = parseYamlSource(text, file, APPCONFIG_WHAT);
  const raw = yamlToJs(src, APPCONFIG_WHAT) ?? {};
  if (!isObj(raw)) {
    throwIssues(
      file,
      [
        {
          path: '(root)',
          line: 1,
          message: 'the application config must be a YAML mapping',
          rule: 'schema.type',
        },
      ],
      APPCONFIG_WHAT,
    );
  }
  const data = dropNulls(structuredClone(raw));
  const legacy = normalizeAppConfigLegacy(data, src);
  return { src, raw, data, legacy };
}

/** Schema-checks normalized data; throws one ValidationError listing every issue with its path and line. */
export function validateAppConfigData(data: Obj, src: YamlSource | undefined, file: string): AppConfig {
  const parsed = appConfigSchema().safeParse(data);
  if (!parsed.success) throwIssues(file, appConfigIssues(parsed.error, src), APPCONFIG_WHAT);
  return parsed.data;
}

/** Locates, reads, validates and applies environment overrides to the application config. */
export function loadAppConfig(opts: {
  cwd: string;
  manifestRoot?: string;
  explicit?: string;
  env: AppConfigEnv;
  userConfigDir?: string;
}): LoadedAppConfig {
  const userConfigDir = opts.userConfigDir ?? defaultUserConfigDir(opts.env);
  const loc = locateAppConfig({
    cwd: opts.cwd,
    manifestRoot: opts.manifestRoot,
    explicit: opts.explicit,
    userConfigDir,
  });
  let raw: Obj = {};
  let data: Obj = {};
  let legacy: AppConfigLegacy[] = [];
  let trustedKeysFrom: string | undefined;
  if (loc.path) {
    const read = readAppConfigData(readUtf8File(loc.path, APPCONFIG_WHAT), loc.path);
    ({ raw, data, legacy } = read);
    // File errors first, with their lines; only then the environment on top.
    validateAppConfigData(data, read.src, loc.path);
    if (loc.source === 'workspace') {
      const user = userAppConfigPath(opts.cwd, userConfigDir);
      refuseTrustedKeys(
        data,
        read.src,
        loc.path,
        user ?? resolve(opts.cwd, userConfigDir, USER_APPCONFIG_FILENAMES[0]),
      );
      // The workspace file hides the user config from the lookup chain; the keys only a user may set still apply.
      if (user) {
        const own = readAppConfigData(readUtf8File(user, APPCONFIG_WHAT), user);
        validateAppConfigData(own.data, own.src, user);
        overlayTrustedKeys(data, own.data);
        trustedKeysFrom = user;
      }
    }
  }
  const { config, overrides } = applyAppConfigEnv(data, opts.env);
  if (applyAllowedOutsideEnv(config, opts.env)) overrides.push(ALLOWED_OUTSIDE_ENV);
  // Whatever prints an error from now on masks these (a state server may echo its bearer token back).
  for (const secret of secretValues(config)) rememberSecret(secret);
  return {
    ...loc,
    config,
    raw,
    legacy,
    overrides,
    trusted: loc.source !== 'workspace',
    ...(trustedKeysFrom ? { trustedKeysFrom } : {}),
  };
}

/**
 * Where the user's own setting of a trusted-only key (config.editor...) goes: the --appconfig file or the user
 * config in effect, else the user config file (created by the first `appconfig patch --save` there).
 */
export function userSettingFile(loaded: LoadedAppConfig, env: AppConfigEnv, cwd: string): string {
  if ((loaded.source === 'explicit' || loaded.source === 'user') && loaded.path) return loaded.path;
  if (loaded.trustedKeysFrom) return loaded.trustedKeysFrom;
  return resolve(cwd, defaultUserConfigDir(env), USER_APPCONFIG_FILENAMES[0]);
}

/** The user config file (config.yml, then config.yaml in the user config dir), when one exists. */
function userAppConfigPath(cwd: string, userConfigDir: string): string | undefined {
  for (const name of USER_APPCONFIG_FILENAMES) {
    const p = resolve(cwd, userConfigDir, name);
    if (isFile(p)) return p;
  }
  return undefined;
}

/** Makes an empty application config at `path` (mode 0600) when none is there; one that exists is left as it is. */
export function ensureAppConfigFile(path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) saveAppConfig(path, '');
}

/** Writes config text atomically, creating the directory; keeps an existing file's mode, new files are 0600. */
export function saveAppConfig(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    mkdirSync(dirname(path), { recursive: true });
  }
  writeFileAtomicSync(path, text.endsWith('\n') || text === '' ? text : `${text}\n`, mode);
}
