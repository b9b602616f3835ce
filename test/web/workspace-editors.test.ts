// Editor-protocol links and the absolute checkout path of the Workspace page (web/src/pages/workspace/editors.ts).
import { describe, expect, it } from 'vitest';
import { editorLinks, joinPath, uriPath } from '../../web/src/pages/workspace/editors.js';

describe('editor links', () => {
  it('gives VS Code, Cursor and the other editors a <scheme>://file/<abs path> link', () => {
    const links = Object.fromEntries(editorLinks('/tmp/demo/platform/identity').map((l) => [l.id, l.href]));
    expect(links.vscode).toBe('vscode://file/tmp/demo/platform/identity');
    expect(links.cursor).toBe('cursor://file/tmp/demo/platform/identity');
    expect(links.windsurf).toBe('windsurf://file/tmp/demo/platform/identity');
    expect(links.zed).toBe('zed://file/tmp/demo/platform/identity');
    expect(links.idea).toBe('idea://open?file=%2Ftmp%2Fdemo%2Fplatform%2Fidentity');
  });

  it('encodes spaces and #, and writes a Windows path with forward slashes after one slash', () => {
    expect(uriPath('/home/me/my repo#2')).toBe('/home/me/my%20repo%232');
    expect(uriPath('C:\\work\\hub')).toBe('/C:/work/hub');
    expect(editorLinks('C:\\work\\hub')[0]!.href).toBe('vscode://file/C:/work/hub');
  });
});

describe('joinPath', () => {
  it('joins the workspace root and a relative path, resolving . and ..', () => {
    expect(joinPath('/tmp/demo', 'platform/identity')).toBe('/tmp/demo/platform/identity');
    expect(joinPath('/tmp/demo/', './a/../b')).toBe('/tmp/demo/b');
    expect(joinPath('/tmp/demo', '../outside/r')).toBe('/tmp/outside/r');
    expect(joinPath('/tmp/demo', '.')).toBe('/tmp/demo');
    expect(joinPath('C:\\work', 'p\\r')).toBe('C:\\work\\p\\r');
  });
});
