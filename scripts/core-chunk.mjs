// The CLI's core in one chunk. esbuild puts each file in the chunk of the set of entry points (the CLI and every
// module loaded with import()) that reach it, so the modules every command loads were cut into some forty chunks
// by which operation modules share them, and Node pays ~0.4 ms of loader work per module at every start. Every
// other file of src/ imports the core (the files the CLI's main module reaches statically, surfaces aside): all
// core files then share one set of entry points and land in one chunk. Those files load in every CLI process
// anyway, and servers load them too; nothing else changes owner.
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const CORE = 'hub-core';

/** src/ files the entry reaches through static imports (with the same import rewriting as the real build). */
async function staticClosure(options, entry, root) {
  const result = await build({ ...options, entryPoints: [entry], write: false, metafile: true });
  const inputs = result.metafile.inputs;
  const abs = (p) => (p.startsWith('/') ? p : join(process.cwd(), p));
  const byAbs = new Map(Object.entries(inputs).map(([k, v]) => [abs(k), v]));
  const seen = new Set([entry]);
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop();
    for (const i of byAbs.get(file)?.imports ?? []) {
      if (i.kind === 'dynamic-import' || i.external) continue;
      const p = abs(i.path);
      if (!seen.has(p)) {
        seen.add(p);
        todo.push(p);
      }
    }
  }
  return [...seen].filter((p) => p.startsWith(`${root}/`)).sort();
}

/**
 * Finds the core (the static closure of `entry`, files under `root` only, `surfaces/` left out) with a first
 * build of `options`; returns the plugin that serves the core module and the prelude every other file gets.
 * The files the launcher loads before anything else (the static closure of `launcher`: the daemon client, the
 * version) get no prelude: a command a daemon runs, or `hub --version`, never loads the core.
 */
export async function coreChunk({ options, entry, launcher, root }) {
  const core = new Set(
    (await staticClosure(options, entry, root)).filter((p) => !p.startsWith(`${root}/surfaces/`)),
  );
  const first = new Set(await staticClosure(options, launcher, root));
  const plugin = {
    name: 'core-chunk',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${CORE}$`) }, () => ({ path: CORE, namespace: CORE }));
      b.onLoad({ filter: /.*/, namespace: CORE }, () => ({
        contents: [...core].map((p) => `import ${JSON.stringify(p)};`).join('\n'),
        loader: 'js',
        resolveDir: dirname(entry),
      }));
    },
  };
  // A core file never imports a file outside the core (the closure is transitive), so no cycle is made.
  const prelude = (file) => (core.has(file) || first.has(file) ? '' : `import "${CORE}";\n`);
  return { plugin, prelude, size: core.size };
}
