import { HubError, NotFoundError, ValidationError } from '../infra/index.js';
import type { ManifestFile, Source } from '../model/index.js';
import type { HttpOptions } from '../org/index.js';
import { applySourceEdits } from './source-apply.js';
import {
  discoverSource,
  type ResolvedSource,
  resolveSource,
  type SourceDiscovery,
} from './source-discover.js';
import { type PlanEdits, type PlanError, planSources, type SourcePlan } from './source-plan.js';

export interface SourceReport {
  project: string;
  id: string;
  provider: string;
  namespace: string;
  discovered_count: number;
  filtered_count: number;
  enabled: boolean;
  pages?: number;
  rate_limited?: number;
  truncated?: boolean;
  error?: { kind: string; message: string };
}

export interface SourceSyncResult {
  ok: boolean;
  applied: boolean;
  from_manifest: boolean;
  project: string | null;
  sources: SourceReport[];
  plan: SourcePlan;
  errors: PlanError[];
}

export interface SourceSyncOptions {
  project?: string;
  /** true: the projects' sources[]; false: `source` alone, for `project`. */
  fromManifest: boolean;
  source?: Source;
  apply: boolean;
  env: Readonly<Record<string, string | undefined>>;
  http?: HttpOptions;
}

const emptyPlan = (): SourcePlan => ({
  discovered_count: 0,
  filtered_count: 0,
  unchanged: [],
  to_add: [],
  to_update: [],
  to_remove: [],
});

/** The sources to read, by project: the manifest's (checked for duplicate ids) or one given source. */
function sourcesByProject(
  file: ManifestFile,
  opts: SourceSyncOptions,
): Array<{ project: string; sources: ResolvedSource[] }> {
  const projects = file.manifest.workspace?.projects ?? [];
  if (opts.project && !projects.some((p) => p.name === opts.project))
    throw new NotFoundError(`project '${opts.project}' is not in the manifest`, {
      field: 'project_name',
      value: opts.project,
      rule: 'project_exists',
    });
  if (!opts.fromManifest) {
    if (!opts.source)
      throw new ValidationError('from_manifest is false: give the source to read (source: {provider, ...})', {
        field: 'source',
        rule: 'required_without_manifest',
      });
    if (!opts.project)
      throw new ValidationError('from_manifest is false: name the project the repositories go to', {
        field: 'project_name',
        rule: 'required_without_manifest',
      });
    return [{ project: opts.project, sources: [resolveSource(opts.source)] }];
  }
  return projects
    .filter((p) => !opts.project || p.name === opts.project)
    .map((p) => {
      const sources = (p.sources ?? []).map(resolveSource);
      const seen = new Set<string>();
      for (const s of sources) {
        if (seen.has(s.id))
          throw new ValidationError(
            `project ${p.name}: two sources share the id '${s.id}'; give each an id of its own (rule source_id_unique)`,
            { field: `workspace.projects.${p.name}.sources`, value: s.id, rule: 'source_id_unique' },
          );
        seen.add(s.id);
      }
      return { project: p.name, sources };
    })
    .filter((x) => x.sources.length > 0 || opts.project === x.project);
}

/**
 * Previews (default) or applies what the projects' sources find: local folders are walked, hosts asked through
 * their REST APIs. A source that fails is reported with its error and changes nothing; the others go on.
 */
export async function syncSources(file: ManifestFile, opts: SourceSyncOptions): Promise<SourceSyncResult> {
  const result: SourceSyncResult = {
    ok: true,
    applied: false,
    from_manifest: opts.fromManifest,
    project: opts.project ?? null,
    sources: [],
    plan: emptyPlan(),
    errors: [],
  };
  const edits: PlanEdits = { add: [], update: [], remove: [] };
  const projects = file.manifest.workspace?.projects ?? [];
  for (const { project, sources } of sourcesByProject(file, opts)) {
    const found: SourceDiscovery[] = [];
    for (const src of sources) {
      const report: SourceReport = {
        project,
        id: src.id,
        provider: src.provider,
        namespace: src.namespace,
        discovered_count: 0,
        filtered_count: 0,
        enabled: src.spec.enabled !== false,
      };
      result.sources.push(report);
      if (!report.enabled) continue;
      try {
        const d = await discoverSource(src, { root: file.root, env: opts.env, http: opts.http });
        Object.assign(report, {
          discovered_count: d.repos.length + d.filtered_count + d.rejected.length,
          filtered_count: d.filtered_count,
          ...(d.pages !== undefined
            ? { pages: d.pages, rate_limited: d.rate_limited, truncated: d.truncated }
            : {}),
        });
        found.push(d);
      } catch (err) {
        if (!(err instanceof HubError)) throw err;
        const kind = String(err.details?.rule ?? err.code);
        report.error = { kind, message: err.message };
        result.errors.push({ project, source: src.id, kind, message: err.message });
      }
    }
    const repos = projects.find((p) => p.name === project)?.repos ?? [];
    const one = planSources(project, repos, found);
    for (const k of ['unchanged', 'to_add', 'to_update', 'to_remove'] as const)
      result.plan[k].push(...one.plan[k]);
    result.plan.discovered_count += one.plan.discovered_count;
    result.plan.filtered_count += one.plan.filtered_count;
    result.errors.push(...one.errors);
    edits.add.push(...one.edits.add);
    edits.update.push(...one.edits.update);
    edits.remove.push(...one.edits.remove);
  }
  result.ok = result.errors.length === 0;
  if (opts.apply) {
    applySourceEdits(file.path, file.manifest, edits, file.maxBytes);
    result.applied = true;
  }
  return result;
}
