import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { backupFileSync, isInside, RefusedError, writeFileAtomicSync } from '../infra/index.js';
import { yaml } from '../model/index.js';
import { type DiscoveredRepo, discoverRepos } from './discover.js';
import { originParts } from './origins.js';

export interface InitResult {
  path: string;
  created: boolean;
  already_initialized: boolean;
  kind: 'workspace' | 'application';
  repos: number;
  /** Where the replaced manifest was copied (with --force); null when nothing was replaced. */
  backup: string | null;
  /** The `$schema` written on the first line (relative to the manifest), or null when none was. */
  schema: string | null;
  /** The JSON Schema of this hub installation, when it exists but outside the workspace (not written). */
  schema_available: string | null;
}

/** A problem as `hub config validate` lists it. */
export interface InitProblem {
  path: string;
  line?: number;
  rule: string;
  message: string;
}

export interface InitOptions {
  kind: 'workspace' | 'application';
  force: boolean;
  agentMode: boolean;
  now: Date;
  /** Every problem `hub config validate` finds in the existing manifest (empty: it is valid). */
  problems: (path: string) => InitProblem[];
  /** The installed package's `schemas/hub.manifest.schema.json`, when found. */
  installedSchema?: string;
  /**
   * The origin of each checkout (absolute folder -> a clone URL fit to write, and its provider: github, gitlab,
   * a host, or local for a path or file URL); folders without one are left out.
   */
  origins?: (dirs: string[]) => Promise<Map<string, CheckoutOrigin>>;
}

export interface CheckoutOrigin {
  url: string;
  provider: string;
}

/**
 * The manifest entry of a found checkout. A checkout with an origin that sits where a url-only repository checks
 * out (`<project>/<name>` under the manifest) is written by its url: hub finds it there, and on another machine
 * `project sync` clones it there. Elsewhere a repository has exactly one locator, its `path`, and a hosted origin
 * is kept as `source` provenance (`<provider>://<namespace>/<repo>`).
 */
function entryOf(
  root: string,
  r: DiscoveredRepo,
  origin: CheckoutOrigin | undefined,
): Record<string, unknown> {
  const dir = join(root, r.path);
  if (!origin) return { name: r.name, path: r.path };
  if (dir === join(root, r.project, r.name)) return { name: r.name, url: origin.url };
  const parts = origin.provider === 'local' ? undefined : originParts(origin.url);
  return {
    name: r.name,
    path: r.path,
    ...(parts ? { source: { provider: origin.provider, ...parts } } : {}),
  };
}

const SCHEMA_IN_MODULES = 'node_modules/hub-workspace/schemas/hub.manifest.schema.json';

/**
 * The `$schema` of the first line, relative to the manifest's folder, only when the file is really there:
 * `node_modules/hub-workspace/...` of the workspace, or this installation when it lives inside the workspace.
 * A path outside the workspace is never written: it would not exist on a teammate's machine.
 */
function schemaFor(dir: string, installed: string | undefined): string | null {
  if (existsSync(join(dir, SCHEMA_IN_MODULES))) return `./${SCHEMA_IN_MODULES}`;
  if (installed && existsSync(installed) && isInside(dir, installed))
    return `./${relative(dir, installed).split(sep).join('/')}`;
  return null;
}

async function draftText(
  root: string,
  kind: 'workspace' | 'application',
  schema: string | null,
  origins: InitOptions['origins'],
): Promise<{ text: string; repos: number; urls: number }> {
  const first = schema ? `# yaml-language-server: $schema=${schema}\n` : '';
  const name =
    basename(root)
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'workspace';
  if (kind === 'application') {
    const body = yaml().stringify({ kind: 'application', name, paths: [], components: [] });
    return {
      text: `${first}# Application manifest: list this app's parts under paths[] (see \`hub config example\`).\n${body}`,
      repos: 0,
      urls: 0,
    };
  }
  const found = discoverRepos(root);
  const known = origins ? await origins(found.map((r) => join(root, r.path))) : new Map();
  const projects = new Map<string, Array<Record<string, unknown>>>();
  let urls = 0;
  for (const r of found) {
    const list = projects.get(r.project) ?? [];
    if (!list.some((x) => x.name === r.name)) {
      const entry = entryOf(root, r, known.get(join(root, r.path)));
      if (entry.url) urls++;
      list.push(entry);
    }
    projects.set(r.project, list);
  }
  const body = yaml().stringify({
    workspace: {
      name,
      projects:
        projects.size > 0
          ? [...projects].map(([p, repos]) => ({ name: p, repos }))
          : [{ name: 'default', repos: [] }],
    },
  });
  const header =
    `${first}# Created by \`hub init\`: ${found.length} git repositories found. Add components with \`hub component detect --apply\`.\n` +
    (urls > 0
      ? '# A repository with an origin that sits at <project>/<name> is listed by its url: hub finds the checkout there.\n'
      : '');
  return { text: header + body, repos: found.length, urls };
}

/**
 * Creates a manifest. An existing one that `hub config validate` accepts is left alone (already initialized);
 * one with problems is refused with the problems listed. `force` replaces either, after copying it to
 * `<manifest>.bak-<UTC time>` beside it; never in agent mode, where the file must be removed first.
 */
export async function initManifest(path: string, opts: InitOptions): Promise<InitResult> {
  let backup: string | null = null;
  if (existsSync(path)) {
    if (opts.agentMode && opts.force) {
      throw new RefusedError(
        `init --force is blocked in agent mode: remove ${path} first if it really should be replaced`,
        { path, rule: 'agent_mode_force' },
      );
    }
    if (!opts.force) {
      const problems = opts.problems(path);
      if (problems.length === 0) {
        return {
          path,
          created: false,
          already_initialized: true,
          kind: opts.kind,
          repos: 0,
          backup: null,
          schema: null,
          schema_available: null,
        };
      }
      throw new RefusedError(
        `${path} exists but \`hub config validate\` finds ${problems.length} problem(s) in it; nothing was changed`,
        {
          path,
          rule: 'exists_invalid',
          issues: problems,
          hint: `fix the problems (\`hub config validate\` lists each with its line), or replace the file with \`hub init --force\`, which keeps a copy as ${basename(path)}.bak-<time>`,
        },
        409,
      );
    }
    backup = backupFileSync(path, opts.now);
  }
  const dir = dirname(path);
  const schema = schemaFor(dir, opts.installedSchema);
  const { text, repos } = await draftText(dir, opts.kind, schema, opts.origins);
  writeFileAtomicSync(path, text);
  return {
    path,
    created: true,
    already_initialized: false,
    kind: opts.kind,
    repos,
    backup,
    schema,
    schema_available:
      !schema && opts.installedSchema && existsSync(opts.installedSchema) ? opts.installedSchema : null,
  };
}
