import { type Declared, emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';

/** The dependency sections of package.json that name other packages. */
export const NPM_SECTIONS = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * package.json: `name` is what the repository publishes; the keys of the four dependency sections are what it
 * depends on. `workspaces` (a list, or `{packages}`) names member folders, read too when they are plain paths or
 * one `*` level (`packages/*`).
 */
export function parseNpm(text: string, file: string): FileDeclarations {
  const data: unknown = JSON.parse(text);
  if (!isRecord(data)) return emptyDeclarations();
  const lines = new LineIndex(text);
  const out = emptyDeclarations();
  if (typeof data.name === 'string' && data.name !== '')
    out.provides.push({ ecosystem: 'npm', name: data.name, file, line: lines.find('"name"') });
  for (const section of NPM_SECTIONS) {
    const deps = data[section];
    if (!isRecord(deps)) continue;
    const at = text.indexOf(`"${section}"`);
    for (const name of Object.keys(deps)) {
      const req: Declared = { ecosystem: 'npm', name, file, scope: section };
      req.line = lines.find(`"${name}"`, Math.max(0, at));
      out.requires.push(req);
    }
  }
  const ws = Array.isArray(data.workspaces)
    ? data.workspaces
    : isRecord(data.workspaces) && Array.isArray(data.workspaces.packages)
      ? data.workspaces.packages
      : [];
  const more = ws.filter((w): w is string => typeof w === 'string');
  if (more.length > 0) out.more = more;
  return out;
}
