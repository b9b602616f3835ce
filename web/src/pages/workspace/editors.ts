// Editor-protocol links for a checkout: the editor registers the scheme with the operating system, so the link
// opens the folder there without asking hub. Pure (no DOM) and unit-tested.

export interface EditorLink {
  id: string;
  label: string;
  href: string;
}

/** `/home/me/x` -> `/home/me/x`; `C:\x\y` -> `/C:/x/y`: one leading slash, forward slashes, each segment encoded. */
export function uriPath(absPath: string): string {
  const slashed = absPath.replace(/\\/g, '/');
  const withRoot = slashed.startsWith('/') ? slashed : `/${slashed}`;
  return withRoot
    .split('/')
    .map((seg) => (/^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/');
}

/** `<scheme>://file/<abs path>`: VS Code and the editors built on it, and Zed. */
const fileScheme = (scheme: string) => (p: string) => `${scheme}://file${uriPath(p)}`;

const EDITORS: ReadonlyArray<{ id: string; label: string; href: (absPath: string) => string }> = [
  { id: 'vscode', label: 'VS Code', href: fileScheme('vscode') },
  { id: 'cursor', label: 'Cursor', href: fileScheme('cursor') },
  { id: 'windsurf', label: 'Windsurf', href: fileScheme('windsurf') },
  { id: 'vscodium', label: 'VSCodium', href: fileScheme('vscodium') },
  { id: 'zed', label: 'Zed', href: fileScheme('zed') },
  // JetBrains IDEs answer `idea://open?file=<path>` (IntelliJ IDEA; the others use their own product scheme).
  {
    id: 'idea',
    label: 'IntelliJ IDEA',
    href: (p) => `idea://open?file=${encodeURIComponent(p.replace(/\\/g, '/'))}`,
  },
];

/** The editor links of a checkout at `absPath`. */
export function editorLinks(absPath: string): EditorLink[] {
  return EDITORS.map((e) => ({ id: e.id, label: e.label, href: e.href(absPath) }));
}

/**
 * `root` + `relative` with `.` and `..` resolved (both with `/` or `\`): the absolute checkout path the open
 * actions need, from the workspace list's root and a repo's root-relative path.
 */
export function joinPath(root: string, relative: string): string {
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  const drive = /^[A-Za-z]:/.exec(root)?.[0] ?? '';
  const parts: string[] = [];
  for (const seg of `${root.slice(drive.length)}/${relative}`.split(/[\\/]+/)) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `${drive}${sep}${parts.join(sep)}`;
}
