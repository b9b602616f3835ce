import { HubError } from '../infra/index.js';
import { checkGlob } from './glob/index.js';

/** Where a repository's CODEOWNERS file is looked for, in GitHub's order (then GitLab's own folder); first wins. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'];

/** One owner of a CODEOWNERS file with the claim patterns of every line naming it. */
export interface CodeOwner {
  /** The owner as written (`@org/team`, `@user`, `mail@example.com`). */
  owner: string;
  patterns: string[];
}

export interface SkippedLine {
  line: number;
  text: string;
  reason: string;
}

export interface ParsedCodeOwners {
  owners: CodeOwner[];
  skipped: SkippedLine[];
}

/**
 * Claim patterns of one CODEOWNERS pattern (gitignore rules as GitHub reads them): a leading `/` or a `/` inside
 * anchors it at the root, otherwise it matches at any depth (`**` + `/`); a trailing `/` means a folder and
 * everything under it; a last segment without wildcards may name a file or a folder, so both are claimed; `docs/*`
 * stays one level deep, as GitHub documents.
 */
export function codeownersPatterns(raw: string): string[] {
  const dirOnly = raw.endsWith('/');
  const body = raw.replace(/^\/+/, '').replace(/\/+$/, '');
  if (body === '' || body === '*' || body === '**') return ['**'];
  const anchored = raw.startsWith('/') || body.includes('/');
  const base = anchored || body.startsWith('**/') ? body : `**/${body}`;
  if (dirOnly) return [base.endsWith('/**') ? base : `${base}/**`];
  if (base.endsWith('/**')) return [base];
  const last = base.slice(base.lastIndexOf('/') + 1);
  return /[*?]/.test(last) ? [base] : [base, `${base}/**`];
}

/**
 * Parses a CODEOWNERS file into owners and their patterns. Lines the claim model cannot express are skipped and
 * listed: negation (`!`), character ranges and escapes (GitHub does not support them either), GitLab section
 * headers, lines without owners (they unassign paths; ownership here is advisory and additive).
 */
export function parseCodeOwners(text: string): ParsedCodeOwners {
  const byOwner = new Map<string, string[]>();
  const skipped: SkippedLine[] = [];
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) return;
    const parsed = parseLine(line);
    if ('skip' in parsed) {
      skipped.push({ line: i + 1, text: line.slice(0, 200), reason: parsed.skip });
      return;
    }
    for (const owner of parsed.owners) {
      const list = byOwner.get(owner) ?? [];
      for (const g of parsed.globs) if (!list.includes(g)) list.push(g);
      byOwner.set(owner, list);
    }
  });
  return {
    owners: [...byOwner.entries()].map(([owner, patterns]) => ({ owner, patterns })),
    skipped,
  };
}

/** One non-comment line: its owners and claim patterns, or why it is skipped. */
function parseLine(line: string): { owners: string[]; globs: string[] } | { skip: string } {
  if (/^\^?\[/.test(line)) return { skip: 'GitLab section header' };
  const tokens = line.split(/\s+/);
  const cut = tokens.findIndex((t) => t.startsWith('#'));
  const [pattern = '', ...owners] = cut === -1 ? tokens : tokens.slice(0, cut);
  if (owners.length === 0) return { skip: 'no owners (the line unassigns paths)' };
  if (pattern.startsWith('!')) return { skip: 'negation is not supported in CODEOWNERS' };
  if (/[[\]\\]/.test(pattern))
    return { skip: 'character ranges and escapes are not supported in CODEOWNERS' };
  try {
    return { owners, globs: codeownersPatterns(pattern).map((g) => checkGlob(g)) };
  } catch (err) {
    if (err instanceof HubError) return { skip: err.message };
    throw err;
  }
}

/** The concept name of a CODEOWNERS owner: the handle without `@` (`@org/auth` -> `org/auth`). */
export function ownerConceptName(owner: string): string {
  return owner.replace(/^@/, '');
}
