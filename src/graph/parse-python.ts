import { parseTomlBounded as parseToml } from './bounded-text.js';
import { type Declared, emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';
import { TomlLines } from './toml-lines.js';

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
  const keys = new TomlLines(text);
  const out = emptyDeclarations();
  const project = isRecord(data.project) ? data.project : {};
  const poetry = isRecord(data.tool) && isRecord(data.tool.poetry) ? data.tool.poetry : {};
  const name = typeof project.name === 'string' ? project.name : poetry.name;
  if (typeof name === 'string' && name !== '')
    out.provides.push({
      ecosystem: 'python',
      name,
      file,
      line:
        keys.line(typeof project.name === 'string' ? ['project', 'name'] : ['tool', 'poetry', 'name']) ??
        new LineIndex(text).find(name),
    });
  const req = (dep: string, scope: string, line: number | undefined): Declared => ({
    ecosystem: 'python',
    name: dep,
    file,
    line,
    scope,
  });
  // A requirement string of a list, cited at its own line inside the list at `path`.
  const addList = (list: unknown, path: string[], scope: string) => {
    if (!Array.isArray(list)) return;
    for (const spec of list) {
      if (typeof spec !== 'string') continue;
      const dep = requirementName(spec);
      if (dep) out.requires.push(req(dep, scope, keys.itemLine(path, spec)));
    }
  };
  addList(project.dependencies, ['project', 'dependencies'], 'dependencies');
  if (isRecord(project['optional-dependencies']))
    for (const [extra, list] of Object.entries(project['optional-dependencies']))
      addList(list, ['project', 'optional-dependencies', extra], `optional-dependencies.${extra}`);
  if (isRecord(data['dependency-groups']))
    for (const [group, list] of Object.entries(data['dependency-groups']))
      addList(list, ['dependency-groups', group], `dependency-groups.${group}`);
  const poetryTables: Array<[string[], unknown]> = [
    [['tool', 'poetry', 'dependencies'], poetry.dependencies],
    [['tool', 'poetry', 'dev-dependencies'], poetry['dev-dependencies']],
  ];
  if (isRecord(poetry.group))
    for (const [group, g] of Object.entries(poetry.group))
      if (isRecord(g))
        poetryTables.push([['tool', 'poetry', 'group', group, 'dependencies'], g.dependencies]);
  for (const [path, table] of poetryTables) {
    if (!isRecord(table)) continue;
    // Poetry lists the interpreter among the dependencies.
    for (const dep of Object.keys(table))
      if (dep !== 'python') out.requires.push(req(dep, path.join('.'), keys.line([...path, dep])));
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
