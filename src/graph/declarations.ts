/** The package ecosystems whose manifests the graph reads; `git` is submodules. */
export const ECOSYSTEMS = ['npm', 'go', 'python', 'cargo', 'maven', 'helm', 'git'] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

/** A package name a repository publishes, or one it depends on, with the file (and line) that says so. */
export interface Declared {
  ecosystem: Ecosystem;
  /** The name as the ecosystem matches it (normalized: see `matchKey`). */
  name: string;
  /** Repository-relative path of the file, POSIX separators. */
  file: string;
  line?: number;
  /** Where in the file: `devDependencies`, `require`, `[dev-dependencies]`, ... */
  scope?: string;
}

/** What one package file declares. `more` are further folders (workspace members) the file asks to read. */
export interface FileDeclarations {
  provides: Declared[];
  requires: Declared[];
  more?: string[];
}

export const emptyDeclarations = (): FileDeclarations => ({ provides: [], requires: [] });

/** Line numbers of offsets in one text, found by binary search over the line starts (built once per file). */
export class LineIndex {
  private starts?: number[];
  constructor(private readonly text: string) {}

  /** 1-based line of `offset`; undefined for a negative offset (not found). */
  lineOf(offset: number): number | undefined {
    if (offset < 0) return undefined;
    if (!this.starts) {
      this.starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1))
        this.starts.push(i + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Line of the first key `key` (bare or quoted) at the start of a line: TOML `key = `, `key.x = `, YAML `key:`. */
  findKey(key: string): number | undefined {
    const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`^[ \\t]*["']?${esc}["']?[ \\t]*[=.:]`, 'm').exec(this.text);
    return m ? this.lineOf(m.index) : undefined;
  }

  /** Line of the first occurrence of `needle` at or after `from`. */
  find(needle: string, from = 0): number | undefined {
    return this.lineOf(this.text.indexOf(needle, from));
  }
}

/** The key two declarations match on: ecosystem plus the name as that ecosystem compares names. */
export function matchKey(ecosystem: Ecosystem, name: string): string {
  return `${ecosystem}:${normalizeName(ecosystem, name)}`;
}

/**
 * Names as each ecosystem compares them: Python distributions by PEP 503 (case-insensitive, runs of `-_.` equal),
 * crates with `-` and `_` equal (crates.io refuses names that differ only so), Maven coordinates and npm names
 * exactly (npm names are lowercase already), Go module paths exactly, Helm chart names exactly.
 */
export function normalizeName(ecosystem: Ecosystem, name: string): string {
  if (ecosystem === 'python') return name.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'cargo') return name.toLowerCase().replace(/_/g, '-');
  return name;
}
