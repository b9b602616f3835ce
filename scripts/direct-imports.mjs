// An esbuild plugin that points each named import of a domain door (`src/<domain>/index.ts`) at the module that
// defines the name. esbuild splits code by file and follows every static import of a file, used or not, so one
// import through a door made every command's chunks hold the whole domain behind it (and what that imports).
// Sources keep their doors; only the bundle's import graph changes.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { transform } from 'esbuild';

/** A top-level named import or re-export as esbuild prints it (the braces may span lines). */
const NAMED = /^(import|export) \{([^}]*)\} from "([^"]+)";$/gm;
/** A module's own export list as esbuild prints it. */
const EXPORTS = /^export \{([^}]*)\};$/gm;

/** `a`, `a as b` (and their `type` forms, which the transform has removed) as [imported, local] pairs. */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, alias] = s.split(/\s+as\s+/);
      return [name.trim(), (alias ?? name).trim()];
    });
}

/** The JavaScript esbuild makes of a TypeScript file (types gone, imports printed one per line). */
async function javascript(file, tsconfigRaw) {
  const source = await readFile(file, 'utf8');
  const out = await transform(source, { loader: 'ts', format: 'esm', sourcefile: file, tsconfigRaw });
  return out.code;
}

/**
 * @param {{ root: string, tsconfigRaw?: object | string, prelude?: (file: string) => string }} options `root`: the
 *   folder whose files are rewritten (src/); `prelude`: text put before a file's code (see core-chunk.mjs).
 */
export function directImports({ root, tsconfigRaw = {}, prelude = () => '' }) {
  /** door file -> Map(exported name -> {file, name}) for the names it re-exports; built once per door. */
  const doors = new Map();
  const isDoor = (file) => file.startsWith(`${root}/`) && /\/index\.ts$/.test(file);
  const tsFile = (from, spec) => resolve(dirname(from), spec).replace(/\.js$/, '.ts');

  async function doorMap(file) {
    let map = doors.get(file);
    if (map) return map;
    map = (async () => {
      const code = await javascript(file, tsconfigRaw);
      // The transform prints `export { a } from './x.js'` as an import of a and a closing `export { a }`.
      const imported = new Map();
      for (const m of code.matchAll(NAMED)) {
        if (m[1] !== 'import' || !m[3].startsWith('.')) continue;
        const target = tsFile(file, m[3]);
        for (const [inner, local] of specifiers(m[2])) {
          // A door that re-exports another door: follow it to the defining module.
          const deeper = isDoor(target) ? (await doorMap(target)).get(inner) : undefined;
          imported.set(local, deeper ?? { file: target, name: inner });
        }
      }
      const names = new Map();
      for (const m of code.matchAll(EXPORTS)) {
        for (const [local, exported] of specifiers(m[1])) {
          const to = imported.get(local);
          if (to) names.set(exported, to);
        }
      }
      return names;
    })();
    doors.set(file, map);
    return map;
  }

  return {
    name: 'direct-imports',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(`${root}/`)) return undefined;
        const before = prelude(args.path);
        if (isDoor(args.path)) {
          if (!before) return undefined;
          const source = await readFile(args.path, 'utf8');
          return { contents: before + source, loader: 'ts', resolveDir: dirname(args.path) };
        }
        const code = await javascript(args.path, tsconfigRaw);
        const edits = [];
        for (const m of code.matchAll(NAMED)) {
          if (m[1] !== 'import' || !m[3].startsWith('.')) continue;
          const door = tsFile(args.path, m[3]);
          if (!isDoor(door)) continue;
          const map = await doorMap(door);
          const byFile = new Map();
          for (const [imported, local] of specifiers(m[2])) {
            const to = map.get(imported);
            // A name the door defines itself stays an import of the door.
            const file = to?.file ?? door;
            const name = to?.name ?? imported;
            if (!byFile.has(file)) byFile.set(file, []);
            byFile.get(file).push(name === local ? name : `${name} as ${local}`);
          }
          const text = [...byFile]
            .map(([file, names]) => `import { ${names.join(', ')} } from ${JSON.stringify(file)};`)
            .join('\n');
          edits.push({ at: m.index, end: m.index + m[0].length, text });
        }
        if (edits.length === 0 && !before) return undefined;
        let contents = before;
        let from = 0;
        for (const e of edits) {
          contents += code.slice(from, e.at) + e.text;
          from = e.end;
        }
        contents += code.slice(from);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}
