import { join } from 'node:path';
import { tryReadFileBounded } from '../infra/index.js';

/** Bounds of one repository's command detection; a file or name past them is left out, never an error. */
export const COMMAND_LIMITS = {
  /** Bytes read of one declaring file (package.json, Makefile, pyproject.toml, noxfile.py, a CI file). */
  maxFileBytes: 256 * 1024,
  /** Folders read besides the root (catalogued component folders). */
  maxDirs: 32,
  /** Commands taken from one file. */
  maxPerFile: 100,
  /** CI files read. */
  maxCiFiles: 20,
} as const;

/**
 * Text of a file of the checkout, `rel` relative to the real root `root`: a regular file inside the root only,
 * at most COMMAND_LIMITS.maxFileBytes; undefined when it is absent, refused or too large.
 */
export function readRepoText(root: string, rel: string): string | undefined {
  const r = tryReadFileBounded(join(root, rel), {
    root,
    maxBytes: COMMAND_LIMITS.maxFileBytes,
    rootName: 'the repository',
  });
  if (!r.ok) return undefined;
  const text = r.bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line numbers of offsets in one text. */
export class Lines {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Line of an offset (undefined for a negative one: not found). */
  at(offset: number): number | undefined {
    if (offset < 0) return undefined;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Line of the first occurrence of `needle` at or after `from`. */
  find(needle: string, from = 0): number | undefined {
    return this.at(this.text.indexOf(needle, Math.max(0, from)));
  }

  /**
   * Line of key `key` (bare or quoted, at the start of a line, then `=` or `.`) inside TOML table `table`, or
   * anywhere when the table header is not found (an inline or dotted table).
   */
  tomlKey(table: string, key: string): number | undefined {
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const header = new RegExp(`^[ \\t]*\\[[ \\t]*${esc(table)}[ \\t]*\\][ \\t]*(#.*)?$`, 'm').exec(this.text);
    const keyRe = new RegExp(`^[ \\t]*["']?${esc(key)}["']?[ \\t]*[=.]`, 'm');
    if (header) {
      const start = header.index + header[0].length;
      const next = /^[ \t]*\[/m.exec(this.text.slice(start));
      const body = this.text.slice(start, next ? start + next.index : undefined);
      const m = keyRe.exec(body);
      if (m) return this.at(start + m.index);
    }
    const m = keyRe.exec(this.text);
    return m ? this.at(m.index) : undefined;
  }
}

/** `file:line`, or the file alone when the line is unknown. */
export const at = (file: string, line: number | undefined) => (line === undefined ? file : `${file}:${line}`);

/** A path joined to a repository-relative folder (`.` is the root). */
export const under = (dir: string, name: string) => (dir === '.' ? name : `${dir}/${name}`);
