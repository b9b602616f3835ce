import { emptyDeclarations, type FileDeclarations } from './declarations.js';

/** Strips a `//` comment and surrounding space from one go.mod line. */
const clean = (line: string) => line.replace(/\/\/.*$/, '').trim();
const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

/**
 * The `// indirect` mark as Go's modfile reads it: the line's comment is `indirect`, or starts with `indirect;`.
 */
function isIndirect(raw: string): boolean {
  const at = raw.indexOf('//');
  if (at === -1) return false;
  const words = raw
    .slice(at + 2)
    .trim()
    .split(/\s+/);
  return (words.length === 1 && words[0] === 'indirect') || (words.length > 1 && words[0] === 'indirect;');
}

/**
 * go.mod: `module <path>` is what the repository publishes; every module path in a `require` directive (single
 * line or block) is a dependency, scope `require`, or `indirect` when Go marks it so. `go.work` `use` folders
 * are read too.
 */
export function parseGoMod(text: string, file: string): FileDeclarations {
  const out = emptyDeclarations();
  const lines = text.split('\n');
  let block: string | undefined;
  lines.forEach((raw, i) => {
    const line = clean(raw);
    if (line === '') return;
    if (block) {
      if (line === ')') block = undefined;
      else if (block === 'require') addRequire(line, i + 1, raw);
      return;
    }
    const m = /^(module|require)\s+(.*)$/.exec(line);
    if (!m) return;
    const rest = m[2]!.trim();
    if (m[1] === 'module') {
      const path = unquote(rest.split(/\s+/)[0] ?? '');
      if (path) out.provides.push({ ecosystem: 'go', name: path, file, line: i + 1 });
    } else if (rest === '(') block = 'require';
    else addRequire(rest, i + 1, raw);
  });
  return out;

  function addRequire(spec: string, line: number, raw: string): void {
    const path = unquote(spec.split(/\s+/)[0] ?? '');
    const scope = isIndirect(raw) ? 'indirect' : 'require';
    if (path && path !== '(') out.requires.push({ ecosystem: 'go', name: path, file, line, scope });
  }
}

/** go.work: the `use` folders (single or block) are workspace members, read like the root. */
export function parseGoWork(text: string): FileDeclarations {
  const out = emptyDeclarations();
  const more: string[] = [];
  let inUse = false;
  for (const raw of text.split('\n')) {
    const line = clean(raw);
    if (inUse) {
      if (line === ')') inUse = false;
      else if (line) more.push(unquote(line));
      continue;
    }
    const m = /^use\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1]!.trim() === '(') inUse = true;
    else more.push(unquote(m[1]!.trim()));
  }
  if (more.length > 0) out.more = more;
  return out;
}
