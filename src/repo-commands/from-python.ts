import { parse as parseToml } from '@decimalturn/toml-patch';
import { command, type Detector, type Folder } from './folder.js';
import { at, COMMAND_LIMITS, Lines, readRepoText, under } from './text.js';
import { type CommandKind, type DeclaredCommand, kindOf, kindOfLine } from './types.js';

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);
const table = (v: unknown): Table => (isTable(v) ? v : {});

/** A script body as text: a string, a `{cmd}`/`{shell}` table, or a list of steps. */
function bodyText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join(' && ');
  if (isTable(v)) {
    const c = v.cmd ?? v.shell ?? v.cmds ?? v.call;
    return typeof c === 'string' ? c : Array.isArray(c) ? bodyText(c) : undefined;
  }
  return undefined;
}

const scriptKind = (name: string, body: unknown, also?: string): CommandKind | undefined => {
  const text = bodyText(body);
  return kindOf(name) ?? (also ? kindOf(also) : undefined) ?? (text ? kindOfLine(text) : undefined);
};

function parseTomlFile(
  folder: Folder,
  name: string,
): { data: Table; lines: Lines; file: string } | undefined {
  if (!folder.files.has(name)) return undefined;
  const file = under(folder.dir, name);
  const text = readRepoText(folder.root, file);
  if (text === undefined) return undefined;
  try {
    return { data: table(parseToml(text)), lines: new Lines(text), file };
  } catch {
    return undefined;
  }
}

/** Hatch environments' scripts (`hatch run <script>`, or `hatch run <env>:<script>` outside the default env). */
function hatchScripts(folder: Folder, envs: Table, prefix: string, lines: Lines, file: string) {
  const out: DeclaredCommand[] = [];
  for (const [env, cfg] of Object.entries(envs))
    for (const [name, body] of Object.entries(table(table(cfg).scripts))) {
      const kind = scriptKind(name, body, env);
      if (!kind) continue;
      const ref = env === 'default' ? name : `${env}:${name}`;
      const line = lines.tomlKey(`${prefix}envs.${env}.scripts`, name);
      out.push(command(folder, { kind, command: `hatch run ${ref}`, source: at(file, line) }));
    }
  return out;
}

/** Named tasks of a runner (`pdm run <name>`, `poe <name>`); names starting with `_` are private or options. */
function namedTasks(
  folder: Folder,
  tasks: Table,
  run: string,
  tableName: string,
  lines: Lines,
  file: string,
) {
  const out: DeclaredCommand[] = [];
  for (const [name, body] of Object.entries(tasks)) {
    if (name.startsWith('_')) continue;
    const kind = scriptKind(name, body);
    if (kind)
      out.push(
        command(folder, {
          kind,
          command: `${run} ${name}`,
          source: at(file, lines.tomlKey(tableName, name)),
        }),
      );
  }
  return out;
}

/** tox environments: `tox` runs the env list (tests); named lint or build environments get `tox -e <env>`. */
function toxEnvs(folder: Folder, names: string[], source: (env?: string) => string): DeclaredCommand[] {
  const out: DeclaredCommand[] = [command(folder, { kind: 'test', command: 'tox', source: source() })];
  for (const env of new Set(names)) {
    if (/[{}\s]/.test(env) || env === '') continue;
    const kind = kindOf(env);
    if (kind && kind !== 'test')
      out.push(command(folder, { kind, command: `tox -e ${env}`, source: source(env) }));
  }
  return out;
}

/**
 * pyproject.toml: Hatch environment scripts, PDM scripts, poethepoet tasks, a native `[tool.tox]`, and the tools
 * it configures that are commands of their own (`[tool.pytest.ini_options]` -> `pytest`, `[tool.ruff]` ->
 * `ruff check`); hatch.toml the same way as Hatch's own file.
 */
export const pyprojectCommands: Detector = (folder) => {
  const out: DeclaredCommand[] = [];
  const py = parseTomlFile(folder, 'pyproject.toml');
  if (py) {
    const { data, lines, file } = py;
    const tool = table(data.tool);
    out.push(...hatchScripts(folder, table(table(tool.hatch).envs), 'tool.hatch.', lines, file));
    out.push(
      ...namedTasks(folder, table(table(tool.pdm).scripts), 'pdm run', 'tool.pdm.scripts', lines, file),
    );
    out.push(...namedTasks(folder, table(table(tool.poe).tasks), 'poe', 'tool.poe.tasks', lines, file));
    if (isTable(tool.tox)) {
      const tox = tool.tox;
      const list = tox.env_list ?? tox.envlist;
      const names = [
        ...(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []),
        ...Object.keys(table(tox.env)),
      ];
      out.push(
        ...toxEnvs(folder, names, (env) =>
          at(file, env ? lines.tomlKey(`tool.tox.env.${env}`, 'commands') : lines.find('[tool.tox')),
        ),
      );
    }
    if (isTable(table(tool.pytest).ini_options))
      out.push(
        command(folder, { kind: 'test', command: 'pytest', source: at(file, lines.find('[tool.pytest')) }),
      );
    if (isTable(tool.ruff))
      out.push(
        command(folder, { kind: 'lint', command: 'ruff check', source: at(file, lines.find('[tool.ruff')) }),
      );
  }
  const hatch = parseTomlFile(folder, 'hatch.toml');
  if (hatch) out.push(...hatchScripts(folder, table(hatch.data.envs), '', hatch.lines, hatch.file));
  return out.slice(0, COMMAND_LIMITS.maxPerFile);
};

/** INI sections of a file: name -> {line, keys}; values of continued lines are joined. */
function iniSections(text: string): Map<string, { line: number; keys: Map<string, string> }> {
  const sections = new Map<string, { line: number; keys: Map<string, string> }>();
  let current: { line: number; keys: Map<string, string> } | undefined;
  let lastKey: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const head = /^\[([^\]]+)\]\s*$/.exec(line);
    if (head) {
      current = { line: i + 1, keys: new Map() };
      sections.set(head[1]!.trim(), current);
      lastKey = undefined;
      return;
    }
    if (!current || /^\s*[#;]/.test(line) || line.trim() === '') return;
    if (/^\s/.test(line) && lastKey !== undefined) {
      current.keys.set(lastKey, `${current.keys.get(lastKey)} ${line.trim()}`);
      return;
    }
    const kv = /^([^=:]+)[=:](.*)$/.exec(line);
    if (kv) {
      lastKey = kv[1]!.trim();
      current.keys.set(lastKey, kv[2]!.trim());
    }
  });
  return sections;
}

/** tox.ini: `tox` for the env list, `tox -e <env>` for lint and build environments; pytest.ini -> `pytest`. */
export const iniCommands: Detector = (folder) => {
  const out: DeclaredCommand[] = [];
  if (folder.files.has('tox.ini')) {
    const file = under(folder.dir, 'tox.ini');
    const text = readRepoText(folder.root, file);
    if (text !== undefined) {
      const sections = iniSections(text);
      const tox = sections.get('tox');
      if (tox || sections.has('testenv')) {
        const list = tox?.keys.get('envlist') ?? tox?.keys.get('env_list') ?? '';
        const names = [
          ...list.split(/[,\s]+/),
          ...[...sections.keys()].filter((s) => s.startsWith('testenv:')).map((s) => s.slice(8)),
        ];
        out.push(
          ...toxEnvs(folder, names, (env) =>
            at(
              file,
              (env ? sections.get(`testenv:${env}`) : undefined)?.line ??
                (tox ?? sections.get('testenv'))?.line,
            ),
          ),
        );
      }
    }
  }
  if (folder.files.has('pytest.ini'))
    out.push(command(folder, { kind: 'test', command: 'pytest', source: under(folder.dir, 'pytest.ini') }));
  return out.slice(0, COMMAND_LIMITS.maxPerFile);
};

/** `@nox.session` (or `@session`) decorators, with arguments or none, then the function they decorate. */
const NOX_DECORATOR = /^[ \t]*@(?:nox\.)?session\b(\((.*)\))?/;
const NOX_DEF = /^[ \t]*(?:async[ \t]+)?def[ \t]+([A-Za-z_][A-Za-z0-9_]*)/;
const NOX_NAME = /\bname\s*=\s*(['"])([^'"]+)\1/;

/** noxfile.py sessions whose name says build, test or lint, as `nox -s <name>` (read as text, never run). */
export const noxSessions: Detector = (folder) => {
  if (!folder.files.has('noxfile.py')) return [];
  const file = under(folder.dir, 'noxfile.py');
  const text = readRepoText(folder.root, file);
  if (text === undefined) return [];
  const lines = text.split('\n');
  const out: DeclaredCommand[] = [];
  for (let i = 0; i < lines.length && out.length < COMMAND_LIMITS.maxPerFile; i++) {
    const dec = NOX_DECORATOR.exec(lines[i]!);
    if (!dec) continue;
    let name = NOX_NAME.exec(dec[2] ?? '')?.[2];
    // The decorated function: the next `def` within a few lines (other decorators may sit between).
    for (let j = i + 1; j < Math.min(lines.length, i + 8) && name === undefined; j++)
      name = NOX_DEF.exec(lines[j]!)?.[1];
    if (!name) continue;
    const kind = kindOf(name);
    if (kind) out.push(command(folder, { kind, command: `nox -s ${name}`, source: at(file, i + 1) }));
  }
  return out;
};
