import { LineIndex } from './declarations.js';

/** Where one key is defined: its line and the offset where its value starts. */
interface KeyAt {
  line: number;
  valueAt: number;
}

const sep = '\u0000';
const BARE = /^[A-Za-z0-9_-]+/;

/**
 * Lines of the keys of a TOML text by their full dotted path (`target.cfg(unix).dependencies.serde`), so a key
 * that several tables hold is cited in the table named. Values come from the TOML parser; this only places
 * them: one pass over the lines that follows `[table]` and `[[array]]` headers, dotted and quoted keys, and
 * skips what sits inside strings, multi-line strings, arrays and inline tables. (toml-patch's syntax tree has
 * positions too, but building it costs more than the parse itself.)
 */
export class TomlLines {
  private keys?: Map<string, KeyAt>;
  private readonly lines: LineIndex;

  constructor(private readonly text: string) {
    this.lines = new LineIndex(text);
  }

  /** Line of the key at `path` (its `key =` line, or its `[table]` header); undefined when not found. */
  line(path: readonly string[]): number | undefined {
    return this.index().get(path.join(sep))?.line;
  }

  /** Line of the string `value` inside the array at `path` (a dependency list), else the key's line. */
  itemLine(path: readonly string[], value: string): number | undefined {
    const at = this.index().get(path.join(sep));
    if (!at) return undefined;
    for (const q of ['"', "'"]) {
      const i = this.text.indexOf(`${q}${value}${q}`, at.valueAt);
      if (i !== -1) return this.lines.lineOf(i);
    }
    return at.line;
  }

  private index(): Map<string, KeyAt> {
    if (this.keys) return this.keys;
    const keys = new Map<string, KeyAt>();
    // A path is placed where it is written: its `key =` line or `[header]`, the first one (TOML allows one). A
    // header's prefixes (`target` of `[target.x.dependencies]`) are only implied there, so a later explicit
    // `[target]` takes the place; prefixes inside a dotted key (`serde` of `serde.workspace = true`) are written.
    const implied = new Set<string>();
    const put = (path: readonly string[], from: number, line: number, valueAt: number, lastOnly: boolean) => {
      for (let n = from; n <= path.length; n++) {
        const k = path.slice(0, n).join(sep);
        const implicit = lastOnly && n < path.length;
        if (keys.has(k) && !(implied.has(k) && !implicit)) continue;
        keys.set(k, { line, valueAt });
        if (implicit) implied.add(k);
        else implied.delete(k);
      }
    };
    const scan = new ValueScanner(this.text);
    let table: string[] = [];
    let offset = 0;
    let lineNo = 0;
    while (offset <= this.text.length) {
      const end = this.text.indexOf('\n', offset);
      const stop = end === -1 ? this.text.length : end;
      lineNo++;
      if (scan.open()) scan.run(offset, stop);
      else {
        const head = skipSpace(this.text, offset, stop);
        const c = this.text[head];
        if (c === '[') {
          const array = this.text[head + 1] === '[';
          const parsed = parseKey(this.text, head + (array ? 2 : 1), stop);
          if (parsed) {
            table = parsed.path;
            put(table, 1, lineNo, parsed.end, true);
          }
        } else if (c !== undefined && c !== '#' && head < stop) {
          const parsed = parseKey(this.text, head, stop);
          if (parsed && this.text[parsed.end] === '=') {
            // `serde.workspace = true` defines `serde` here too.
            put([...table, ...parsed.path], table.length + 1, lineNo, parsed.end + 1, false);
            scan.run(parsed.end + 1, stop);
          }
        }
      }
      if (end === -1) break;
      offset = end + 1;
    }
    this.keys = keys;
    return keys;
  }
}

function skipSpace(text: string, i: number, stop: number): number {
  while (i < stop && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

/** A dotted key starting at `i` (`a."b.c".'d'`), up to the `=` or `]` that ends it. */
function parseKey(text: string, i: number, stop: number): { path: string[]; end: number } | undefined {
  const path: string[] = [];
  for (;;) {
    i = skipSpace(text, i, stop);
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close === -1 || close >= stop) return undefined;
      const raw = text.slice(i + 1, close);
      path.push(c === '"' ? raw.replace(/\\(["\\])/g, '$1') : raw);
      i = close + 1;
    } else {
      const m = BARE.exec(text.slice(i, stop));
      if (!m) return undefined;
      path.push(m[0]);
      i += m[0].length;
    }
    i = skipSpace(text, i, stop);
    if (text[i] === '.') {
      i++;
      continue;
    }
    if (text[i] === '=' || text[i] === ']') return { path, end: i };
    return undefined;
  }
}

/**
 * Follows a value across lines: open brackets and braces, and multi-line strings, so their lines are not read as
 * keys or headers.
 */
class ValueScanner {
  private depth = 0;
  private multi: '"""' | "'''" | undefined;

  constructor(private readonly text: string) {}

  open(): boolean {
    return this.depth > 0 || this.multi !== undefined;
  }

  run(i: number, stop: number): void {
    const t = this.text;
    while (i < stop) {
      if (this.multi) {
        const close = t.indexOf(this.multi, i);
        if (close === -1 || close >= stop) return;
        i = close + 3;
        this.multi = undefined;
        continue;
      }
      const c = t[i]!;
      if (c === '#') return;
      if (c === '"' || c === "'") {
        if (t.startsWith(c.repeat(3), i)) {
          this.multi = c === '"' ? '"""' : "'''";
          i += 3;
          continue;
        }
        let j = i + 1;
        while (j < stop && t[j] !== c) j += c === '"' && t[j] === '\\' ? 2 : 1;
        i = j + 1;
        continue;
      }
      if (c === '[' || c === '{') this.depth++;
      else if ((c === ']' || c === '}') && this.depth > 0) this.depth--;
      i++;
    }
  }
}
