import { parseYamlBounded } from './bounded-text.js';
import { emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';
import { resolveSubmoduleUrl, urlKey } from './url-key.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Chart.yaml: the chart's `name` is what the repository publishes; `dependencies[].name` what it depends on. */
export function parseChart(source: string, file: string): FileDeclarations {
  // Few aliases: a chart has none, and a billion-laughs document stops here.
  const data: unknown = parseYamlBounded(source, { maxAliasCount: 50 });
  const out = emptyDeclarations();
  if (!isRecord(data)) return out;
  const lines = new LineIndex(source);
  if (typeof data.name === 'string' && data.name !== '')
    out.provides.push({ ecosystem: 'helm', name: data.name, file, line: lines.findKey('name') });
  if (Array.isArray(data.dependencies)) {
    const at = Math.max(0, source.indexOf('dependencies:'));
    for (const dep of data.dependencies) {
      if (!isRecord(dep) || typeof dep.name !== 'string' || dep.name === '') continue;
      const repo = typeof dep.repository === 'string' ? dep.repository : undefined;
      out.requires.push({
        ecosystem: 'helm',
        name: dep.name,
        file,
        line: lines.find(dep.name, at),
        scope: repo ? `dependencies (${repo})` : 'dependencies',
      });
    }
  }
  return out;
}

/**
 * .gitmodules: each submodule's `url` (relative ones resolved against the repository's own URL from the
 * manifest) is a dependency on the repository cloned from it, matched by URL key (see `urlKey`).
 */
export function parseGitmodules(source: string, file: string, ctx: { repoUrl?: string }): FileDeclarations {
  const out = emptyDeclarations();
  let section: string | undefined;
  source.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    const head = /^\[submodule\s+"([^"]*)"\]$/.exec(line);
    if (head) {
      section = head[1];
      return;
    }
    const m = /^url\s*=\s*(.+)$/.exec(line);
    if (!m || section === undefined) return;
    const resolved = resolveSubmoduleUrl(m[1]!.trim(), ctx.repoUrl);
    const key = resolved ? urlKey(resolved) : undefined;
    if (key)
      out.requires.push({ ecosystem: 'git', name: key, file, line: i + 1, scope: `submodule ${section}` });
  });
  return out;
}
