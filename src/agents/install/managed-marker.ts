import { extname } from 'node:path';
import { sha256Hex } from '../../infra/index.js';

/**
 * How hub knows a file is its own and unchanged: the last line of every file it writes whole carries a marker
 * with the SHA-256 of everything above it. The marker travels with the file (a commit, a clone, a copy to a
 * colleague's home), so any hub can tell "written by hub, not edited since" (safe to replace with a newer
 * rendering) from "edited by someone" or "not hub's" (a conflict without --force). No install record is kept
 * anywhere: a record would go stale as soon as the file moved or the repository was cloned elsewhere.
 *
 * The marker is a comment in the file's own syntax, so vendors that read the file ignore it: an HTML comment
 * in Markdown (agent files, SKILL.md) and a `#` comment in scripts and YAML/TOML. A file of another kind carries
 * no marker; hub then treats any difference as a conflict, since it cannot tell who wrote it.
 */

const HASH_COMMENT = new Set(['.sh', '.bash', '.py', '.rb', '.yaml', '.yml', '.toml']);
const MARKDOWN = new Set(['.md', '.markdown']);
const NOTE = 'written by hub: edits are kept, hub replaces this file only with --force once changed';

/** The comment syntax of a file's marker, or null when the file kind has no comments hub can use. */
export function markerStyle(path: string): 'html' | 'hash' | null {
  const ext = extname(path).toLowerCase();
  if (MARKDOWN.has(ext)) return 'html';
  if (HASH_COMMENT.has(ext)) return 'hash';
  return null;
}

const MARKER_LINE =
  /^(?:<!-- hub:managed sha256=([0-9a-f]{64})[^\n]*-->|# hub:managed sha256=([0-9a-f]{64})[^\n]*)$/gm;

/** Line endings as hub compares them: a checkout with CRLF (git autocrlf) is the same file. */
export function normalizeNewlines(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

const withTrailingNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/** The content with hub's marker as its last line (content without a marker style is returned as it is). */
export function withMarker(path: string, content: string): string {
  const style = markerStyle(path);
  if (!style) return content;
  const body = withTrailingNewline(normalizeNewlines(content));
  const hash = sha256Hex(body);
  const line =
    style === 'html'
      ? `<!-- hub:managed sha256=${hash}; ${NOTE} -->`
      : `# hub:managed sha256=${hash}; ${NOTE}`;
  return `${body}${line}\n`;
}

/**
 * What the marker of a file on disk says: `intact` (hub wrote it and nobody changed it since), `edited` (hub
 * wrote it and the text above the marker changed), `none` (no marker: not written by hub, or its marker removed).
 */
export function markerState(text: string): 'intact' | 'edited' | 'none' {
  const t = normalizeNewlines(text);
  let last: RegExpExecArray | undefined;
  for (const m of t.matchAll(MARKER_LINE)) last = m;
  if (!last) return 'none';
  const body = t.slice(0, last.index);
  // Anything after the marker line (an edit appended at the end) is a change too.
  const after = t.slice(last.index + last[0].length);
  const intact = sha256Hex(body) === (last[1] ?? last[2]) && (after === '' || after === '\n');
  return intact ? 'intact' : 'edited';
}
