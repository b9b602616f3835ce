import { parseTomlBounded as parseToml } from './bounded-text.js';
import { emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';
import { TomlLines } from './toml-lines.js';

const SECTIONS = ['dependencies', 'dev-dependencies', 'build-dependencies'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Cargo.toml: `[package] name` is what the repository publishes; the keys of `[dependencies]`,
 * `[dev-dependencies]`, `[build-dependencies]` (also per `[target.*]`) and `[workspace.dependencies]` are what it
 * depends on, by the `package = "..."` a renamed entry gives, each cited at the line of the table it is in.
 * `[workspace] members` (less `exclude`) are read too.
 */
export function parseCargo(text: string, file: string): FileDeclarations {
  const data = parseToml(text) as Record<string, unknown>;
  const keys = new TomlLines(text);
  const out = emptyDeclarations();
  if (isRecord(data.package) && typeof data.package.name === 'string' && data.package.name !== '')
    out.provides.push({
      ecosystem: 'cargo',
      name: data.package.name,
      file,
      line: keys.line(['package', 'name']) ?? new LineIndex(text).find(data.package.name),
    });
  // [scope as reported, path of the table, the table]
  const tables: Array<[string, string[], unknown]> = SECTIONS.map((s) => [s, [s], data[s]]);
  if (isRecord(data.target))
    for (const [cfg, t] of Object.entries(data.target))
      if (isRecord(t))
        for (const s of SECTIONS) tables.push([`target.${cfg}.${s}`, ['target', cfg, s], t[s]]);
  const workspace = isRecord(data.workspace) ? data.workspace : {};
  tables.push(['workspace.dependencies', ['workspace', 'dependencies'], workspace.dependencies]);
  for (const [scope, path, table] of tables) {
    if (!isRecord(table)) continue;
    for (const [key, spec] of Object.entries(table)) {
      const name = isRecord(spec) && typeof spec.package === 'string' ? spec.package : key;
      out.requires.push({ ecosystem: 'cargo', name, file, line: keys.line([...path, key]), scope });
    }
  }
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : [];
  // Excluded folders are negated patterns, as the member patterns they carve out of.
  const more = [...strings(workspace.members), ...strings(workspace.exclude).map((x) => `!${x}`)];
  if (strings(workspace.members).length > 0) out.more = more;
  return out;
}
