import { ValidationError } from '../../infra/index.js';
import type { ForeignClaim } from '../prompts/repo-handoff.js';
import type { VendorSpec } from '../vendors.js';
import type { ScopeRoot } from './artifacts.js';

/** What a dispatch plan needs of a template (the templates room's resolved manifest, narrowed). */
export interface DispatchTemplate {
  id: string;
  label: string;
  scope: 'workspace' | 'project' | 'repo';
  category?: string;
  source: string;
  recommended_skills: string[];
  delegates_to: string[];
  /** Vendors the template declares artifacts for; null when it does not say (every vendor). */
  vendors: string[] | null;
  /** The template's own out-of-scope lines, when it declares any. */
  limits: string[];
}

export interface DispatchInput {
  template: DispatchTemplate;
  vendor: VendorSpec;
  project?: string;
  repo?: string;
  component?: string;
  task?: string;
  agentId?: string;
  /** Install scopes: the repository checkout (or the workspace's git root) and the home folder. */
  scopes: { project: ScopeRoot; user: ScopeRoot };
  /** Live claims of other agents in the repository. */
  claims: ForeignClaim[];
  /** `-c <manifest>` words for printed commands, when the target folder would not find the manifest itself. */
  definitionArgs: string[];
}

/** Longest task text: it is a label pasted into command lines and prompt headings, not a specification. */
export const TASK_MAX_CHARS = 2000;
/** Checks the task label: one line, bounded. */
export function checkTask(task: string): string {
  const t = task.trim();
  if (t.length > TASK_MAX_CHARS)
    throw new ValidationError(
      `task: ${t.length} characters; at most ${TASK_MAX_CHARS} (a label, not a specification)`,
      {
        field: 'task',
        value: `${t.slice(0, 80)}...`,
        rule: `max_${TASK_MAX_CHARS}_chars`,
      },
    );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\u0000-\u001f\u007f]/.test(t))
    throw new ValidationError(
      'task: one line without control characters (put details in an objective or handoff)',
      {
        field: 'task',
        rule: 'single_line',
      },
    );
  return t;
}

/** Refuses a target that does not fit the template's scope (the earlier product's rules). */
export function checkTarget(t: DispatchTemplate, project?: string, repo?: string): void {
  if (repo !== undefined && project === undefined)
    throw new ValidationError('repo: needs project (--project with --repo)', {
      field: 'repo',
      value: repo,
      rule: 'requires_project',
    });
  const need =
    t.scope === 'repo' ? (repo === undefined ? (project === undefined ? 'project' : 'repo') : null) : null;
  const needProject = t.scope === 'project' && project === undefined ? 'project' : null;
  const field = need ?? needProject;
  if (field)
    throw new ValidationError(`${field}: required: template ${t.id} is ${t.scope}-scoped`, {
      field,
      rule: `required_for_${t.scope}_scope`,
      template: t.id,
    });
}
