import { appendFileSync, lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { RefusedError, runGit, ValidationError, writeFileUnder } from '../infra/index.js';

/**
 * The `.env.hub` file of a worktree: `HUB_PORT_1..N` of its leased ports and the rendered
 * `coordination.worktree.env` templates, so a dev server started in the worktree reads its own ports. The file is
 * kept out of git through the repository's `info/exclude` (`/.env.hub`), never by editing a `.gitignore`.
 */
export const ENV_FILE = '.env.hub';
const EXCLUDE_LINE = `/${ENV_FILE}`;

export interface EnvValues {
  agent_id: string;
  task_id: string;
  ports: readonly number[];
}

/** `{agent_id}`, `{task_id}`, `{port_<n>}` of one template; an unknown placeholder is a config error. */
export function renderTemplate(key: string, template: string, v: EnvValues): string {
  return template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    if (name === 'agent_id') return v.agent_id;
    if (name === 'task_id') return v.task_id;
    const port = /^port_(\d+)$/.exec(name);
    const n = port ? Number(port[1]) : 0;
    if (n >= 1 && n <= v.ports.length) return String(v.ports[n - 1]);
    throw new ValidationError(
      `coordination.worktree.env.${key}: {${name}} is not a placeholder here; use {agent_id}, {task_id}` +
        (v.ports.length ? ` or {port_1}..{port_${v.ports.length}}` : ' (no ports are configured)'),
      { field: `coordination.worktree.env.${key}`, value: template, rule: 'env_placeholder' },
    );
  });
}

/** A value as a .env line carries it: bare when plain, else double-quoted with `\` and `"` escaped. */
const quoted = (v: string) => (/^[A-Za-z0-9_./:@%+,=-]*$/.test(v) ? v : `"${v.replace(/[\\"]/g, '\\$&')}"`);

/** The variables of the file, in order: the ports, then the templates. */
export function envEntries(
  templates: Record<string, string> | undefined,
  v: EnvValues,
): Array<[string, string]> {
  return [
    ...v.ports.map((p, i): [string, string] => [`HUB_PORT_${i + 1}`, String(p)]),
    ...Object.entries(templates ?? {}).map(([k, t]): [string, string] => [k, renderTemplate(k, t, v)]),
  ];
}

/** Refuses a branch that ships its own `.env.hub` (a file or a link): hub would overwrite it or write through it. */
export function checkEnvFileFree(worktree: string, branch: string): void {
  let exists = true;
  try {
    lstatSync(join(worktree, ENV_FILE));
  } catch {
    exists = false;
  }
  if (exists)
    throw new RefusedError(
      `branch '${branch}' has a ${ENV_FILE} of its own; hub writes that file with the worktree's ports and env, so it will not overwrite it (rename it on the branch, or drop coordination.worktree.ports and env)`,
      { field: 'branch', value: branch, rule: 'env_file_free', path: ENV_FILE },
      409,
    );
}

/** Writes `.env.hub` (mode 0600: the env may name credentials) and keeps it out of git. Returns its path. */
export async function writeEnvFile(
  worktree: string,
  entries: ReadonlyArray<[string, string]>,
  about: { worktree_id: string },
): Promise<string> {
  await excludeEnvFile(worktree);
  const text = [
    `# Written by hub worktree create (worktree ${about.worktree_id}); ignored through info/exclude.`,
    ...entries.map(([k, v]) => `${k}=${quoted(v)}`),
    '',
  ].join('\n');
  return writeFileUnder(worktree, ENV_FILE, text, 0o600);
}

/** Adds `/.env.hub` to the repository's `info/exclude` (shared by its worktrees) unless it is there already. */
async function excludeEnvFile(worktree: string): Promise<void> {
  const r = await runGit(['rev-parse', '--path-format=absolute', '--git-path', 'info/exclude'], {
    cwd: worktree,
  });
  const path = r.stdout.trim();
  if (r.code !== 0 || !isAbsolute(path))
    throw new RefusedError(`cannot find the info/exclude file of ${worktree}: ${r.stderr.trim()}`, {
      field: 'path',
      value: worktree,
      rule: 'git_exclude',
    });
  let text = '';
  try {
    const st = lstatSync(path);
    if (!st.isFile())
      throw new RefusedError(`${path} is not a regular file; hub will not write through it`, {
        field: 'path',
        value: path,
        rule: 'regular_file',
      });
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof RefusedError) throw err;
    mkdirSync(dirname(path), { recursive: true });
  }
  if (text.split(/\r?\n/).some((l) => l.trim() === EXCLUDE_LINE)) return;
  appendFileSync(path, `${text === '' || text.endsWith('\n') ? '' : '\n'}${EXCLUDE_LINE}\n`);
}
