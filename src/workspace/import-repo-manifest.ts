import { normalizeRelPath, ValidationError } from '../infra/index.js';
import { NAME_RE } from '../model/index.js';
import { parseXml, type XmlElement } from './import-repo-manifest-xml.js';

/** Reads an `<include name=...>` relative to the including file; undefined when it is not there. */
export type IncludeReader = (name: string, fromFile: string) => { file: string; text: string } | undefined;

export interface RepoManifestOptions {
  /** Path of the XML, for error messages and as the base of `<include>`. */
  file: string;
  /** Workspace name of the produced manifest. */
  name: string;
  readInclude?: IncludeReader;
}

export interface ImportedRepo {
  name: string;
  url: string;
  description: string;
  default_branch?: string;
  tags?: Record<string, true>;
}

export interface ImportedProject {
  name: string;
  repos: ImportedRepo[];
}

export interface RepoManifestImport {
  /** A `.hub.yml` document: one project per first path segment, one url-only repo per repo `<project>`. */
  manifest: { workspace: { name: string; description: string; projects: ImportedProject[] } };
  counts: {
    projects: number;
    repos: number;
    removed: number;
    remotes: number;
    groups: number;
    includes_read: number;
    includes_missing: number;
  };
  /** Things imported partially or skipped (missing includes, relative fetch URLs, no-op removals). */
  warnings: string[];
}

interface Remote {
  fetch: string;
  revision?: string;
}

interface RepoProject {
  name: string;
  path: string;
  remote?: string;
  revision?: string;
  upstream?: string;
  groups: string[];
  file: string;
  line: number;
}

const at = (p: { file: string; line: number }) => `${p.file}: line ${p.line}`;

const MAX_INCLUDE_DEPTH = 8;

/** Converts the XML of a Google `repo` manifest (with its includes) into a hub manifest object. */
export function importRepoManifestXml(text: string, opts: RepoManifestOptions): RepoManifestImport {
  const remotes = new Map<string, Remote & { at: string }>();
  const defaults: { remote?: string; revision?: string; at?: string } = {};
  let projects: RepoProject[] = [];
  const warnings: string[] = [];
  let removed = 0;
  let includesRead = 0;
  let includesMissing = 0;

  const walk = (root: XmlElement, file: string, chain: string[]) => {
    const where = (el: XmlElement) => `${file}: line ${el.line}`;
    const fail = (el: XmlElement, message: string, rule = 'repo_manifest'): never => {
      throw new ValidationError(`${where(el)}: ${message}`, { file, line: el.line, rule });
    };
    const need = (el: XmlElement, attr: string): string => {
      const v = el.attrs[attr]?.trim();
      if (!v) fail(el, `<${el.name}> needs a non-empty ${attr} attribute`);
      return v!;
    };
    if (root.name !== 'manifest')
      fail(root, `the root element is <${root.name}>; a repo manifest has <manifest>`);

    const addProject = (el: XmlElement, parent?: RepoProject) => {
      const own = need(el, 'name');
      let path = el.attrs.path?.trim() || own;
      const norm = normalizeRelPath(path);
      if (norm.escapes || norm.path === '.')
        fail(el, `project ${own}: path '${path}' must be a relative path inside the checkout`);
      path = norm.path;
      const p: RepoProject = {
        // Nested projects name and place themselves relative to their parent (remote and revision are not
        // inherited), as repo itself does.
        name: parent ? `${parent.name.replace(/\/+$/, '')}/${own}` : own,
        path: parent ? `${parent.path}/${path}` : path,
        remote: el.attrs.remote?.trim() || undefined,
        revision: el.attrs.revision?.trim() || undefined,
        upstream: el.attrs.upstream?.trim() || undefined,
        groups: splitGroups(el.attrs.groups),
        file,
        line: el.line,
      };
      projects.push(p);
      for (const child of el.children) if (child.name === 'project') addProject(child, p);
    };
    const matching = (el: XmlElement) => {
      const name = need(el, 'name');
      const path = el.attrs.path ? normalizeRelPath(el.attrs.path).path : undefined;
      return (p: RepoProject) => p.name === name && (path === undefined || p.path === path);
    };

    for (const el of root.children) {
      switch (el.name) {
        case 'remote': {
          const name = need(el, 'name');
          const remote = { fetch: need(el, 'fetch'), revision: el.attrs.revision?.trim() || undefined };
          const prior = remotes.get(name);
          if (prior && (prior.fetch !== remote.fetch || prior.revision !== remote.revision))
            fail(el, `remote '${name}' is declared again with other settings (first at ${prior.at})`);
          remotes.set(name, { ...remote, at: where(el) });
          break;
        }
        case 'default': {
          for (const key of ['remote', 'revision'] as const) {
            const v = el.attrs[key]?.trim();
            if (!v) continue;
            if (defaults[key] !== undefined && defaults[key] !== v)
              fail(
                el,
                `<default> sets ${key}='${v}' but an earlier <default> (${defaults.at}) set '${defaults[key]}'`,
              );
            defaults[key] = v;
          }
          defaults.at ??= where(el);
          break;
        }
        case 'project':
          addProject(el);
          break;
        case 'remove-project': {
          const hit = matching(el);
          const before = projects.length;
          projects = projects.filter((p) => !hit(p));
          removed += before - projects.length;
          if (before === projects.length && el.attrs.optional !== 'true')
            warnings.push(`${where(el)}: <remove-project name="${el.attrs.name}"> matched no project`);
          break;
        }
        case 'extend-project': {
          const hit = matching(el);
          const targets = projects.filter(hit);
          if (targets.length === 0)
            warnings.push(`${where(el)}: <extend-project name="${el.attrs.name}"> matched no project`);
          for (const p of targets) {
            p.groups.push(...splitGroups(el.attrs.groups).filter((g) => !p.groups.includes(g)));
            p.revision = el.attrs.revision?.trim() || p.revision;
            p.remote = el.attrs.remote?.trim() || p.remote;
            p.upstream = el.attrs.upstream?.trim() || p.upstream;
          }
          break;
        }
        case 'include': {
          const name = need(el, 'name');
          const inc = opts.readInclude?.(name, file);
          if (!inc) {
            includesMissing++;
            warnings.push(`${where(el)}: <include name="${name}"> not found; its projects are not imported`);
            break;
          }
          if (chain.includes(inc.file))
            fail(el, `<include name="${name}"> includes itself (${[...chain, inc.file].join(' -> ')})`);
          if (chain.length >= MAX_INCLUDE_DEPTH)
            fail(el, `includes nested deeper than ${MAX_INCLUDE_DEPTH} levels`);
          includesRead++;
          walk(parseXml(inc.text, inc.file), inc.file, [...chain, inc.file]);
          break;
        }
        default:
        // notice, superproject, repo-hooks, contactinfo, manifest-server, annotation...: nothing for hub.
      }
    }
  };

  walk(parseXml(text, opts.file), opts.file, [opts.file]);
  return toHubManifest(projects, remotes, defaults, {
    ...opts,
    warnings,
    removed,
    includesRead,
    includesMissing,
  });
}

function toHubManifest(
  projects: RepoProject[],
  remotes: Map<string, Remote & { at: string }>,
  defaults: { remote?: string; revision?: string },
  ctx: RepoManifestOptions & {
    warnings: string[];
    removed: number;
    includesRead: number;
    includesMissing: number;
  },
): RepoManifestImport {
  const { warnings } = ctx;
  const byPath = new Map<string, RepoProject>();
  const hubProjects = new Map<string, { project: ImportedProject; used: Set<string> }>();
  const groups = new Set<string>();
  const relativeFetch = new Set<string>();
  for (const p of projects) {
    const fail = (message: string): never => {
      throw new ValidationError(`${at(p)}: ${message}`, {
        file: p.file,
        line: p.line,
        rule: 'repo_manifest',
      });
    };
    const dup = byPath.get(p.path);
    if (dup) fail(`project ${p.name} uses path '${p.path}', already used by ${dup.name} (${at(dup)})`);
    byPath.set(p.path, p);
    const remoteName = p.remote ?? defaults.remote;
    if (!remoteName) fail(`project ${p.name} names no remote and there is no <default remote=...>`);
    const remote = remotes.get(remoteName!);
    if (!remote) fail(`project ${p.name} uses remote '${remoteName}', which no <remote> declares`);
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:|^\//.test(remote!.fetch) && !/^[^/]+@[^/]+:/.test(remote!.fetch))
      relativeFetch.add(remoteName!);

    const projectName = safeName(p.path.split('/')[0]!);
    let entry = hubProjects.get(projectName);
    if (!entry) {
      entry = { project: { name: projectName, repos: [] }, used: new Set() };
      hubProjects.set(projectName, entry);
    }
    const repoName = unique(safeName(p.path.replaceAll('/', '-')), entry.used);
    const repo: ImportedRepo = {
      name: repoName,
      url: `${remote!.fetch.replace(/\/+$/, '')}/${p.name}`,
      description: `${p.name} (repo path ${p.path})`,
    };
    const branch = branchOf(p.revision ?? remote!.revision ?? defaults.revision, p.upstream);
    if (branch) repo.default_branch = branch;
    if (p.groups.length > 0) {
      repo.tags = Object.fromEntries(p.groups.map((g) => [g, true as const]));
      for (const g of p.groups) groups.add(g);
    }
    entry.project.repos.push(repo);
  }
  for (const r of relativeFetch) {
    warnings.push(
      `remote '${r}' has a relative fetch URL ('${remotes.get(r)!.fetch}'); repo resolves it against the manifest's own URL, so its repo urls are relative`,
    );
  }
  const list = [...hubProjects.values()].map((e) => e.project);
  return {
    manifest: {
      workspace: {
        name: ctx.name,
        description: `Imported from the repo manifest ${ctx.file}`,
        projects: list,
      },
    },
    counts: {
      projects: list.length,
      repos: byPath.size,
      removed: ctx.removed,
      remotes: remotes.size,
      groups: groups.size,
      includes_read: ctx.includesRead,
      includes_missing: ctx.includesMissing,
    },
    warnings,
  };
}

function splitGroups(raw: string | undefined): string[] {
  const out: string[] = [];
  for (const g of (raw ?? '').split(/[\s,]+/)) if (g && !out.includes(g)) out.push(g);
  return out;
}

/** A branch name for `default_branch`: `refs/heads/` stripped; a pinned commit falls back to `upstream`. */
function branchOf(revision: string | undefined, upstream: string | undefined): string | undefined {
  const rev = /^[0-9a-f]{40}$/i.test(revision ?? '') && upstream ? upstream : revision;
  return rev?.replace(/^refs\/heads\//, '') || undefined;
}

/** Makes a hub name (NAME_RE) out of a path or path segment. */
export function safeName(raw: string): string {
  const name = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  // The replacements above leave only NAME_RE characters after a leading letter or digit.
  return NAME_RE.test(name) ? name : 'root';
}

function unique(name: string, used: Set<string>): string {
  let out = name;
  for (let n = 2; used.has(out); n++) out = `${name}-${n}`;
  used.add(out);
  return out;
}
