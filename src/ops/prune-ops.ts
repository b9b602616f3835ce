import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod';
import { type PruneResult, pruneFolders } from '../sync/index.js';
import { checkProjectDeclared, projectNameFields, projectNameOf } from './project-name.js';
import { defineOp } from './registry.js';

export const projectRepoPrune = defineOp({
  id: 'project.repo.prune',
  summary: "Remove folders under a project's folder that the manifest no longer manages (dirty ones kept).",
  description:
    'Looks at <workspace>/<project>/ of each project (or --project): folders and symlinks that are no ' +
    "repository's checkout. Never removes a managed checkout or a folder holding one, the worktrees folder or " +
    '.hub, nor anything outside the workspace (a symlink is unlinked, its target untouched). A checkout with ' +
    'uncommitted changes, untracked files or unpushed commits, and a folder that is not a git checkout, are ' +
    'kept and reported unless --force. Dot-folders are left alone unless --include-hidden.',
  input: z.strictObject({
    ...projectNameFields,
    dry_run: z.boolean().default(false).describe('Only report what would be removed; change nothing.'),
    include_hidden: z.boolean().default(false).describe('Also consider dot-folders (.cache, .old-clone).'),
    force: z
      .boolean()
      .default(false)
      .describe('Also remove dirty checkouts and folders that are not git checkouts.'),
  }),
  gate: 'active',
  attributes: { readOnly: false, idempotent: true, destructive: true },
  handler: async (ctx, input): Promise<PruneResult & { ok: boolean; project: string | null }> => {
    const project = projectNameOf(input);
    const { catalog } = ctx.workspace();
    checkProjectDeclared(ctx.workspace(), project);
    const root = ctx.root();
    const checkouts = ctx.checkouts();
    const managed = catalog.repos.flatMap((r) => {
      const c = checkouts.of(r);
      return c.state === 'present' ? [c.dir] : c.state === 'missing' ? [r.root] : [];
    });
    const ws = ctx.appConfig().config.workspace;
    const abs = (p: string) => (isAbsolute(p) ? p : resolve(root, p));
    const projects = [...new Set(catalog.repos.filter((r) => r.kind === 'workspace').map((r) => r.project))];
    const all = (ctx.workspace().file.manifest.workspace?.projects ?? []).map((p) => p.name);
    const r = await pruneFolders({
      root,
      projects: project ? [project] : [...new Set([...all, ...projects])],
      managed,
      protectedPaths: [abs(ws.worktrees_path), abs(ws.campaigns_path)],
      dryRun: input.dry_run,
      includeHidden: input.include_hidden,
      force: input.force,
    });
    return { ok: true, project: project ?? null, ...r };
  },
  cli: {
    command: 'project repo prune',
    human: (r) =>
      [
        ...r.folders.map(
          (f) =>
            `${f.action.padEnd(12)} ${f.path}${f.reason ? `  ${f.reason}${f.message ? `: ${f.message}` : ''}` : ''}`,
        ),
        `${r.dry_run ? 'prune (dry run)' : 'prune'}: ${r.counts.removed} removed, ${r.counts.would_remove} would be removed, ${r.counts.skipped} kept of ${r.considered} unmanaged folder(s)`,
      ].join('\n'),
  },
  http: [{ method: 'POST', route: '/v3/ops/prune', input: 'body' }],
});
