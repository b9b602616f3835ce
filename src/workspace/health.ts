import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Catalog,
  type CatalogRepo,
  type Checkouts,
  checkoutsOf,
  type Problem,
  REPO_OUTSIDE_RULE,
  validateCatalog,
  validateFilesystem,
} from '../catalog/index.js';
import { mapLimit } from '../infra/index.js';
import { repoGitState } from './git-state.js';

export type Severity = 'critical' | 'warning' | 'info';

export interface HealthFinding {
  severity: Severity;
  code: string;
  /** `<project>/<repo>`, absent for workspace-wide findings. */
  repository?: string;
  message: string;
}

export interface HealthReport {
  ok: true;
  /** unhealthy with any critical finding, degraded with any warning, else healthy. */
  status: 'healthy' | 'degraded' | 'unhealthy';
  repos_checked: number;
  git_checked: boolean;
  counts: Record<Severity, number>;
  findings: HealthFinding[];
  /** All findings, including those beyond the listed ones. */
  findings_total: number;
  /** Problems `hub config validate` reports (its filesystem rules included); 0 when manifest rules were skipped. */
  manifest_problems: number;
}

export interface HealthOptions {
  repos: readonly CatalogRepo[];
  /** Run `git status` per repository (bounded concurrency); false keeps to the manifest and the filesystem. */
  git: boolean;
  concurrency?: number;
  /** Most findings listed (all are counted). */
  limit?: number;
  /** Also apply the manifest's filesystem rules (component folders exist, no symlink escapes). */
  manifestRules?: boolean;
  /** Reserved project names (from the application config), checked as `config validate` does. */
  reservedNames?: string[];
  /** Judge of checkouts; a repository outside the workspace is a critical finding and is never looked into. */
  checkouts?: Checkouts;
  /** Relationship endpoints naming an indexed repository (`<organization>`, `<name>`): as `config validate`. */
  externalRepo?: (organization: string, name: string) => boolean;
  /**
   * The manifest-only problems, when the caller holds them for this loaded manifest (a server's memo); then only
   * the filesystem rules run here, on every call.
   */
  manifestProblems?: () => Problem[];
}

export const HEALTH_FINDINGS_LIMIT = 200;
const RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

async function repoFindings(repo: CatalogRepo, git: boolean, checkouts: Checkouts): Promise<HealthFinding[]> {
  const at = { repository: repo.id };
  const c = checkouts.of(repo);
  if (c.state === 'outside')
    return [{ severity: 'critical', code: REPO_OUTSIDE_RULE, ...at, message: c.error.message }];
  if (c.state === 'missing') {
    return repo.path
      ? [
          {
            severity: 'critical',
            code: 'missing_checkout',
            ...at,
            message: `checkout missing at ${repo.root}`,
          },
        ]
      : [
          {
            severity: 'info',
            code: 'not_cloned',
            ...at,
            message: `declared by url only, not cloned (${repo.url})`,
          },
        ];
  }
  if (repo.kind === 'application') return [];
  if (!existsSync(join(c.dir, '.git')))
    return [
      {
        severity: 'critical',
        code: 'not_a_git_repo',
        ...at,
        message: `${repo.root} is not a git repository`,
      },
    ];
  if (!git) return [];
  const s = await repoGitState(c.dir, { headTime: false });
  const out: HealthFinding[] = [];
  if (s.error) out.push({ severity: 'critical', code: 'git_error', ...at, message: s.error });
  else if (!s.head) out.push({ severity: 'warning', code: 'no_commits', ...at, message: 'no commits yet' });
  if (s.head && s.branch === null)
    out.push({
      severity: 'warning',
      code: 'detached_head',
      ...at,
      message: `HEAD detached at ${s.head.slice(0, 12)}`,
    });
  if ((s.behind ?? 0) > 0)
    out.push({
      severity: 'warning',
      code: 'behind_upstream',
      ...at,
      message: `${s.behind} commit(s) behind upstream`,
    });
  if ((s.ahead ?? 0) > 0)
    out.push({
      severity: 'info',
      code: 'unpushed_commits',
      ...at,
      message: `${s.ahead} commit(s) not pushed`,
    });
  if (s.dirty)
    out.push({
      severity: 'info',
      code: 'uncommitted_changes',
      ...at,
      message: `${s.changes} changed path(s)`,
    });
  return out;
}

/**
 * Health of the workspace: checkouts present and real git repositories, the manifest's filesystem rules, and
 * with `git` each repository's state. Findings are ranked critical, warning, info.
 */
export async function workspaceHealth(catalog: Catalog, opts: HealthOptions): Promise<HealthReport> {
  const findings: HealthFinding[] = [];
  const checkouts = opts.checkouts ?? checkoutsOf(catalog);
  if (opts.manifestRules !== false) {
    const problems = opts.manifestProblems
      ? [...opts.manifestProblems(), ...validateFilesystem(catalog, { checkouts })]
      : validateCatalog(catalog, {
          filesystem: true,
          reservedNames: opts.reservedNames,
          checkouts,
          externalRepo: opts.externalRepo,
        });
    for (const p of problems) {
      // Reported per repository below, as critical.
      if (p.rule === REPO_OUTSIDE_RULE) continue;
      findings.push({
        severity: 'warning',
        code: `manifest_${p.rule}`,
        message: `${p.path}${p.line ? ` (line ${p.line})` : ''}: ${p.message}`,
      });
    }
  }
  const per = await mapLimit(opts.repos, opts.concurrency ?? 8, (r) => repoFindings(r, opts.git, checkouts));
  for (const list of per) findings.push(...list);
  findings.sort((a, b) => RANK[a.severity] - RANK[b.severity]);
  const counts: Record<Severity, number> = { critical: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  const manifestProblems = findings.filter((f) => f.code.startsWith('manifest_')).length;
  return {
    ok: true,
    status: counts.critical > 0 ? 'unhealthy' : counts.warning > 0 ? 'degraded' : 'healthy',
    repos_checked: opts.repos.length,
    git_checked: opts.git,
    counts,
    findings: findings.slice(0, opts.limit ?? HEALTH_FINDINGS_LIMIT),
    findings_total: findings.length,
    manifest_problems: manifestProblems,
  };
}
