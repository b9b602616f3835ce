import { ciFiles, ciRunLines } from '../ci/index.js';
import { normalizeRelPath } from '../infra/index.js';
import { at, COMMAND_LIMITS } from './text.js';
import { type DeclaredCommand, kindOfLine } from './types.js';

/** A repository-relative folder a CI line names, or undefined when it is not one hub can vouch for. */
function folderOf(base: string | undefined, dir: string | undefined): string | undefined | false {
  if (dir === undefined) return base;
  if (/[$~`*?]/.test(dir)) return false;
  const n = normalizeRelPath(base === undefined ? dir : `${base}/${dir}`);
  return n.escapes ? false : n.path;
}

/** `cd <folder> && rest` -> the folder and the rest. */
const CD = /^cd[ \t]+(['"]?)([^'"\s;&|]+)\1[ \t]*&&[ \t]*(.+)$/;

/**
 * Build, test and lint lines of the CI files of a checkout (GitHub Actions, GitLab CI, CircleCI), each with the
 * file and line it is written on. A `working-directory` or a leading `cd <folder> &&` becomes `dir`; lines that
 * use CI expressions (`${{ ... }}`), or a folder outside the repository or built from variables, are left out:
 * an agent could not run them as written.
 */
export function ciCommands(root: string): DeclaredCommand[] {
  const out: DeclaredCommand[] = [];
  for (const ref of ciFiles(root).slice(0, COMMAND_LIMITS.maxCiFiles)) {
    for (const l of ciRunLines(root, ref)) {
      if (l.command.includes('${{')) continue;
      let base = folderOf(undefined, l.dir);
      let line = l.command;
      const cd = CD.exec(line);
      if (cd && base !== false) {
        base = folderOf(base, cd[2]);
        line = cd[3]!.trim();
      }
      if (base === false) continue;
      const kind = kindOfLine(line);
      if (!kind) continue;
      out.push({
        kind,
        command: line,
        ...(base && base !== '.' ? { dir: base } : {}),
        source: at(ref.path, l.line),
      });
    }
  }
  return out;
}
