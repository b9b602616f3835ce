import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogRepo, Checkouts } from '../catalog/index.js';
import { AmbiguousError, NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { editManifestFile, ensureSeq, type ManifestFile, NAME_RE, yaml } from '../model/index.js';
import { type IndexedRepo, type LocalRepo, localMatcher, type OrgIndexFile } from '../org/index.js';
import { checkGitUrl } from './git-url.js';
import { repoNameFrom } from './source-discover.js';
import { syncRepo } from './sync-repo.js';

export interface MaterializeInput {
  /** `<provider>://<namespace>/<repo>`, `<namespace>/<repo>` or a repository name found once. */
  ref: string;
  project?: string;
  name?: string;
  dryRun: boolean;
  timeoutMs: number;
}

export interface MaterializeResult {
  ok: true;
  operation: 'materialized' | 'noop' | 'would_materialize';
  identity: string;
  presence: 'materialized' | 'indexed';
  /** `<project>/<repo>` in the manifest. */
  local: string;
  path: string;
  url: string | null;
  project_created: boolean;
}

/** Manifest repositories as org presence sees them (provenance identity and clone URL). */
export function localsOf(file: ManifestFile): LocalRepo[] {
  return (file.manifest.workspace?.projects ?? []).flatMap((p) =>
    p.repos.map((r) => ({
      id: `${p.name}/${r.name}`,
      url: r.url,
      identity: r.source ? `${r.source.provider}://${r.source.namespace}/${r.source.repo}` : undefined,
    })),
  );
}

function findIndexed(files: readonly OrgIndexFile[], ref: string): IndexedRepo {
  const all = files.flatMap((f) => f.repos);
  const want = ref.trim().replace(/\.git$/, '');
  const lower = want.toLowerCase();
  let hits = all.filter((r) => r.identity === want);
  if (hits.length === 0) hits = all.filter((r) => r.full_name.toLowerCase() === lower);
  if (hits.length === 0) hits = all.filter((r) => r.name.toLowerCase() === lower);
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1)
    throw new AmbiguousError(
      `repo '${ref}' names ${hits.length} indexed repositories (${hits.map((h) => h.identity).join(', ')}); give the identity`,
      { field: 'repo', value: ref, rule: 'unique_match', candidates: hits.map((h) => h.identity) },
    );
  throw new NotFoundError(
    `repo '${ref}' is not in any org index of this workspace; run hub org index <provider> <org> first`,
    { field: 'repo', value: ref, rule: 'org_indexed' },
  );
}

/**
 * indexed -> materialized: clones an indexed repository into `<project>/<name>` and enrolls it in the manifest
 * with its provenance, so its identity `<provider>://<namespace>/<repo>` stays what it was. A repository the
 * manifest already holds is a no-op. The clone comes first; if the manifest cannot take the entry, the fresh
 * clone is removed again and nothing is written.
 */
export async function materializeRepo(
  file: ManifestFile,
  checkouts: Checkouts,
  files: readonly OrgIndexFile[],
  input: MaterializeInput,
): Promise<MaterializeResult> {
  // Both become a folder under the workspace and a manifest name: checked before anything is looked up or cloned.
  for (const field of ['project', 'name'] as const) {
    const v = input[field];
    if (v !== undefined && !NAME_RE.test(v))
      throw new ValidationError(
        `${field} '${v}' is not a name: start with a letter or digit, then letters, digits, '.', '_' and '-' (rule manifest_name)`,
        { field, value: v, rule: 'manifest_name' },
      );
  }
  const entry = findIndexed(files, input.ref);
  const projects = file.manifest.workspace?.projects ?? [];
  const existing = localMatcher(localsOf(file))(entry);
  if (existing) {
    const [p, r] = existing.split('/') as [string, string];
    const repo = projects.find((x) => x.name === p)?.repos.find((x) => x.name === r);
    return {
      ok: true,
      operation: 'noop',
      identity: entry.identity,
      presence: 'materialized',
      local: existing,
      path: repo?.path ?? join(p, r),
      url: repo?.url ?? null,
      project_created: false,
    };
  }
  const project =
    input.project ??
    projects.find((p) =>
      p.sources?.some(
        (s) => s.provider === entry.provider && (s.org ?? s.user ?? s.group) === entry.namespace,
      ),
    )?.name ??
    repoNameFrom(entry.namespace.split('/').pop()!) ??
    entry.provider;
  const name = input.name ?? repoNameFrom(entry.name);
  if (!name)
    throw new RefusedError(`'${entry.name}' cannot be made a repository name; give --name`, {
      field: 'name',
      value: entry.name,
      rule: 'repo_name',
    });
  const target = projects.find((p) => p.name === project);
  if (target?.repos.some((r) => r.name === name))
    throw new RefusedError(
      `project ${project} already has a repository named ${name}; give another --name or --project`,
      { field: 'name', value: name, rule: 'name_taken' },
      409,
    );
  const url = entry.clone_url ?? entry.ssh_url;
  if (!url)
    throw new RefusedError(`${entry.identity}: the host reported no clone URL`, {
      field: 'repo',
      value: entry.identity,
      rule: 'clone_url',
    });
  checkGitUrl(url, `${entry.identity}.clone_url`);
  const dir = join(file.root, project, name);
  const judged = checkouts.of({ id: `${project}/${name}`, root: dir } as CatalogRepo);
  if (judged.state === 'outside') throw judged.error;
  const base = {
    ok: true as const,
    identity: entry.identity,
    local: `${project}/${name}`,
    path: dir,
    url,
    project_created: !target,
  };
  if (input.dryRun) return { ...base, operation: 'would_materialize', presence: 'indexed' };
  const row = await syncRepo(
    { id: base.local, project, repo: name, dir, present: false, url },
    { dryRun: false, timeoutMs: input.timeoutMs },
  );
  if (row.action !== 'cloned')
    throw new RefusedError(`${entry.identity}: ${row.reason}: ${row.message ?? 'not cloned'}`, {
      field: 'repo',
      value: entry.identity,
      rule: row.reason ?? 'clone_failed',
    });
  try {
    editManifestFile(
      file.path,
      (doc) => {
        let pi = projects.findIndex((p) => p.name === project);
        if (pi < 0) {
          const seq = ensureSeq(doc, ['workspace', 'projects']);
          if (yaml().isSeq(seq)) seq.items.push(doc.createNode({ name: project, repos: [] }));
          pi = projects.length;
        }
        const repos = ensureSeq(doc, ['workspace', 'projects', pi, 'repos']);
        if (!yaml().isSeq(repos)) return;
        if (repos.flow && repos.items.length === 0) repos.flow = false;
        repos.items.push(
          doc.createNode({
            name,
            url,
            source: { provider: entry.provider, namespace: entry.namespace, repo: entry.name },
          }),
        );
      },
      file.maxBytes,
    );
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { ...base, operation: 'materialized', presence: 'materialized' };
}
