/** Where hub is installed from, and how an upgrade goes through that channel. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { realpathOrUndefined } from '../infra/index.js';

export type InstallChannel = 'npm_global' | 'npx' | 'development' | 'npm_local' | 'unknown';

export interface InstallInfo {
  channel: InstallChannel;
  /** The package directory hub runs from (holds package.json). */
  package_root: string;
  /** True when package_root is reached through a symlink (`npm link`). */
  linked: boolean;
  /** npm global prefix (npm_global only). */
  global_prefix?: string;
  /** Project whose node_modules holds hub (npm_local only). */
  project_root?: string;
}

export interface UpgradePlan {
  /** argv of the upgrade command, or null when there is nothing hub can run itself. */
  argv: string[] | null;
  cwd: string | null;
  /** One line on what to do, for people and agents. */
  instructions: string;
  /** Why `--apply` is refused on this channel (development checkout, npx, unknown). */
  refused_reason: string | null;
}

/** Walks up from `start` to the directory whose package.json names `name`; undefined when none does. */
export function findPackageRoot(start: string, name: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: unknown }).name === name) return dir;
      } catch {
        // An unreadable package.json is not ours; keep walking.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

const NM = `${sep}node_modules${sep}`;

/**
 * Decides the channel from the real install path: an npx cache (`_npx` in the path), a checkout with `.git` that
 * is not inside node_modules (a development or `npm link`ed checkout), the npm global prefix, a project's
 * node_modules, else unknown.
 */
export function detectInstallChannel(opts: {
  packageRoot: string;
  /** npm's global prefix (`npm prefix -g`); the posix layout `<prefix>/lib/node_modules` is also recognised. */
  globalPrefix?: string;
  platform?: NodeJS.Platform;
}): InstallInfo {
  const given = resolve(opts.packageRoot);
  const real = realpathOrUndefined(given) ?? given;
  const base = { package_root: real, linked: real !== given };
  const path = `${real}${sep}`;
  if (path.includes(`${sep}_npx${sep}`)) return { channel: 'npx', ...base };
  if (!path.includes(NM) && existsSync(join(real, '.git'))) return { channel: 'development', ...base };
  const win = (opts.platform ?? process.platform) === 'win32';
  if (opts.globalPrefix) {
    const prefix = resolve(opts.globalPrefix);
    const globalModules = win ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules');
    if (path.startsWith(`${globalModules}${sep}`) || `${given}${sep}`.startsWith(`${globalModules}${sep}`))
      return { channel: 'npm_global', ...base, global_prefix: prefix };
  }
  const globalAt = path.lastIndexOf(`${sep}lib${NM}`);
  if (!win && globalAt >= 0 && path.indexOf(NM) === globalAt + `${sep}lib`.length)
    return { channel: 'npm_global', ...base, global_prefix: path.slice(0, globalAt) || sep };
  const at = path.lastIndexOf(NM);
  if (at >= 0) return { channel: 'npm_local', ...base, project_root: path.slice(0, at) || sep };
  return { channel: 'unknown', ...base };
}

/** How to upgrade `name` through the detected channel. */
export function planUpgrade(info: InstallInfo, name: string): UpgradePlan {
  switch (info.channel) {
    case 'npm_global':
      return {
        argv: ['npm', 'install', '-g', `${name}@latest`],
        cwd: null,
        instructions: `npm install -g ${name}@latest`,
        refused_reason: null,
      };
    case 'npm_local':
      return {
        argv: ['npm', 'install', `${name}@latest`],
        cwd: info.project_root ?? null,
        instructions: `npm install ${name}@latest in ${info.project_root}`,
        refused_reason: null,
      };
    case 'npx':
      return {
        argv: null,
        cwd: null,
        instructions: `run \`npx ${name}@latest\`: npx keeps one cache entry per version, so @latest fetches the newest`,
        refused_reason: 'hub runs from the npx cache; there is no installation to upgrade in place',
      };
    case 'development':
      return {
        argv: null,
        cwd: info.package_root,
        instructions: `update the checkout: cd ${info.package_root} && git pull && npm install && npm run build`,
        refused_reason: `hub runs from a development checkout (${info.package_root}${info.linked ? ', linked' : ''}); upgrade it with git, not npm`,
      };
    default:
      return {
        argv: null,
        cwd: null,
        instructions: `reinstall with \`npm install -g ${name}@latest\``,
        refused_reason: `cannot tell how hub was installed at ${info.package_root}`,
      };
  }
}
