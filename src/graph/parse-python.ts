import { parseTomlBounded as parseToml } from './bounded-text.js';
import { type Declared, emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';

/** The distribution name at the start of a PEP 508 requirement (`name[extra]>=1; marker`, `name @ url`). */
const REQUIREMENT_NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)/;

export function requirementName(spec: string): string | undefined {
  return REQUIREMENT_NAME.exec(spec)?.[1];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * pyproject.toml: `[project] name` (or Poetry's `[tool.poetry] name`) is what the repository publishes; PEP 621
 * `dependencies` and `optional-dependencies`, PEP 735 `[dependency-groups]` and Poetry's dependency tables
 * (main, groups, legacy dev) are what it depends on.
 */
export function parsePyproject(text: string, file: string): FileDeclarations {
  const data = parseToml(text) as Record<string, unknown>;
  const lines = new LineIndex(text);
  const out = emptyDeclarations();
  const project = isRecord(data.project) ? data.project : {};
  const poetry = isRecord(data.tool) && isRecord(data.tool.poetry) ? data.tool.poetry : {};
  const name = typeof project.name === 'string' ? project.name : poetry.name;
  if (typeof name === 'string' && name !== '')
    out.provides.push({ ecosystem: 'python', name, file, line: lines.find(name) });
  const add = (spec: unknown, scope: string) => {
    if (typeof spec !== 'string') return;
    const dep = requirementName(spec);
    if (dep) out.requires.push(req(dep, scope, spec));
  };
  const req = (dep: string, scope: string, needle: string): Declared => ({
    ecosystem: 'python',
    name: dep,
    file,
    line: lines.find(needle),
    scope,
  });
  if (Array.isArray(project.dependencies)) for (const s of project.dependencies) add(s, 'dependencies');
  if (isRecord(project['optional-dependencies']))
    for (const [extra, list] of Object.entries(project['optional-dependencies']))
      if (Array.isArray(list)) for (const s of list) add(s, `optional-dependencies.${extra}`);
  if (isRecord(data['dependency-groups']))
    for (const [group, list] of Object.entries(data['dependency-groups']))
      if (Array.isArray(list)) for (const s of list) add(s, `dependency-groups.${group}`);
  const poetryTables: Array<[string, unknown]> = [
    ['tool.poetry.dependencies', poetry.dependencies],
    ['tool.poetry.dev-dependencies', poetry['dev-dependencies']],
  ];
  if (isRecord(poetry.group))
    for (const [group, g] of Object.entries(poetry.group))
      if (isRecord(g)) poetryTables.push([`tool.poetry.group.${group}.dependencies`, g.dependencies]);
  for (const [scope, table] of poetryTables) {
    if (!isRecord(table)) continue;
    // Poetry lists the interpreter among the dependencies.
    for (const dep of Object.keys(table))
      if (dep !== 'python') out.requires.push({ ...req(dep, scope, dep), line: lines.findKey(dep) });
  }
  return out;
}

/**
 * requirements*.txt: one requirement per line. Options (`-r`, `-e`, `--index-url`), comments and bare URLs name
 * no distribution and are skipped; `name @ url` names one.
 */
export function parseRequirements(text: string, file: string): FileDeclarations {
  const out = emptyDeclarations();
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '' || line.startsWith('-') || /^[a-z+]+:\/\//i.test(line)) return;
    const dep = requirementName(line);
    if (dep) out.requires.push({ ecosystem: 'python', name: dep, file, line: i + 1, scope: 'requirements' });
  });
  return out;
}
