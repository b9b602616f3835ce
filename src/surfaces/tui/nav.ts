import { join } from 'node:path';
import { NotFoundError, ValidationError } from '../../infra/index.js';
import { defaultUserConfigDir } from '../../model/index.js';
import { launchEditor } from '../../workspace/index.js';
import type { OpRunner } from './op-runner.js';
import { ask, type Prompts } from './prompts.js';
import { listRepoRows, projectsOf, type RepoRow, repoPreview } from './repo-rows.js';

export interface NavOptions {
  project?: string;
  repo?: string;
}

/** What `appconfig.info` returns, as far as the terminal commands read it. */
export interface AppInfo {
  path: string | null;
  source: string;
  trusted_keys_from: string | null;
  config: { config: { editor: string }; workspace: { ui_ignore_hidden: boolean } };
}

/** Rows the finder shows at once: what fits the terminal under the prompt and the preview. */
export function pageSize(rows: number | undefined): number {
  return Math.max(5, Math.min(15, (rows ?? 24) - 10));
}

/** Fuzzy-ranks `items` by `keys` (all of them, in order, for an empty term). */
export function fuzzyRank<T>(
  p: Prompts,
  term: string | undefined,
  items: T[],
  keys: Array<(t: T) => string>,
) {
  const q = term?.trim() ?? '';
  if (q === '') return items;
  return p.fuzzysort.go(q, items, { keys, limit: 0, threshold: 0 }).map((r) => r.obj);
}

/** The project: named (checked), the only one, or picked with the finder. */
async function chooseProject(p: Prompts, byProject: Map<string, RepoRow[]>, named?: string): Promise<string> {
  if (named) return named;
  const names = [...byProject.keys()];
  if (names.length === 1) return names[0]!;
  return await ask((ctx) =>
    p.search(
      {
        message: 'Project',
        pageSize: pageSize(process.stdout.rows),
        source: (term) =>
          fuzzyRank(p, term, names, [(n) => n]).map((n) => {
            const repos = byProject.get(n)!;
            return {
              value: n,
              name: n,
              description: `${n}: ${repos.length} repositories, ${repos.filter((r) => r.exists).length} on disk`,
            };
          }),
      },
      ctx,
    ),
  );
}

/** The repository: named (checked), or picked with the finder and its preview; one not on disk cannot be picked. */
export async function chooseRepo(
  p: Prompts,
  rows: RepoRow[],
  project: string,
  named?: string,
): Promise<RepoRow> {
  if (named) {
    const row = rows.find((r) => r.repo === named);
    // workspace.repo.list already refused an unknown name; this is the same list.
    if (!row)
      throw new NotFoundError(`repository '${named}' not found in project '${project}'`, { repo: named });
    return row;
  }
  return await ask((ctx) =>
    p.search(
      {
        message: `Repository of ${project}`,
        pageSize: pageSize(process.stdout.rows),
        source: (term) =>
          fuzzyRank(p, term, rows, [(r) => r.repo, (r) => Object.keys(r.tags).join(' ')]).map((r) => ({
            value: r,
            name: r.repo,
            description: repoPreview(r),
            // Listed, so a person sees it exists, but not pickable: there is nothing on disk to open.
            ...(r.exists ? {} : { disabled: `(not on disk: hub project sync --project ${r.project})` }),
          })),
      },
      ctx,
    ),
  );
}

/** Where the user's own `config.editor` goes (a workspace hub.config.yaml may not set it). */
export function userSettingPath(app: AppInfo, env: Readonly<Record<string, string | undefined>>): string {
  if ((app.source === 'explicit' || app.source === 'user') && app.path) return app.path;
  return app.trusted_keys_from ?? join(defaultUserConfigDir(env), 'config.yml');
}

/**
 * Opens `row` with `config.editor` in this terminal (a terminal editor works; a GUI launcher returns at once),
 * argv without a shell. Resolves with the editor's exit code.
 */
export async function openRepo(
  ops: OpRunner,
  row: RepoRow,
  env: Readonly<Record<string, string | undefined>>,
  say: (line: string) => void,
): Promise<number> {
  if (!row.exists)
    throw new ValidationError(`${row.id} is not on disk: run hub project sync --project ${row.project}`, {
      field: 'repo',
      value: row.repo,
      rule: 'exists_on_disk',
    });
  const { result: app } = await ops.run<AppInfo>('appconfig.info');
  say(`opening ${row.id} with ${app.config.config.editor}`);
  const run = await launchEditor(app.config.config.editor, row.path, env, {
    configFile: userSettingPath(app, env),
    wait: true,
  });
  if (run.exitCode !== 0) say(`error: the editor ${run.command} exited with code ${run.exitCode}`);
  return run.exitCode === 0 ? 0 : 1;
}

/** Repositories a person sees: dot-named ones hidden while workspace.ui_ignore_hidden is on. */
async function visibleRows(ops: OpRunner, rows: RepoRow[]): Promise<RepoRow[]> {
  const { result: app } = await ops.run<AppInfo>('appconfig.info');
  return app.config.workspace.ui_ignore_hidden ? rows.filter((r) => !r.repo.startsWith('.')) : rows;
}

/** `hub nav`: project, then repository, then the editor. Returns the exit code. */
export async function runNav(
  p: Prompts,
  ops: OpRunner,
  opts: NavOptions,
  env: Readonly<Record<string, string | undefined>>,
  say: (line: string) => void,
): Promise<number> {
  // Unknown names fail in the registry's own scope check, with the nearest names.
  const scope = {
    ...(opts.project ? { project: opts.project } : {}),
    ...(opts.repo ? { repo: opts.repo } : {}),
  };
  const rows = await listRepoRows(ops, scope);
  const byProject = projectsOf(opts.repo ? rows : await visibleRows(ops, rows));
  if (byProject.size === 0)
    throw new ValidationError('the manifest lists no repositories to open', { rule: 'no_repositories' });
  const project = await chooseProject(p, byProject, opts.project);
  const row = await chooseRepo(p, byProject.get(project) ?? [], project, opts.repo);
  return await openRepo(ops, row, env, say);
}
