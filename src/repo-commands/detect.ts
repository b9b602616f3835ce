import { readdirSync } from 'node:fs';
import { normalizeRelPath, resolveReal } from '../infra/index.js';
import type { Detector, Folder } from './folder.js';
import { ciCommands } from './from-ci.js';
import { makeTargets } from './from-make.js';
import { npmScripts } from './from-npm.js';
import { iniCommands, noxSessions, pyprojectCommands } from './from-python.js';
import { toolchainCommands } from './from-toolchain.js';
import { COMMAND_LIMITS } from './text.js';
import { type DeclaredCommand, kindOf, kindOfLine } from './types.js';

/** A catalogued component's `commands` from the manifest (name -> command line). */
export interface ManifestCommands {
  /** Repository-relative path of the component (`.` for the root). */
  path: string;
  commands: Readonly<Record<string, string>>;
}

export interface DetectInput {
  /** Real path of the checkout; absent when it is not on disk (then only the manifest's commands). */
  root?: string;
  /** Repository-relative folders read besides the root, in order (catalogued component paths). */
  dirs?: readonly string[];
  manifest?: readonly ManifestCommands[];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** The detectors of one folder, in the order their commands are listed. */
const DETECTORS: Detector[] = [
  npmScripts,
  makeTargets,
  pyprojectCommands,
  iniCommands,
  noxSessions,
  toolchainCommands,
];

/** Names of the files of a folder (symlinks too: the bounded reader refuses those that leave the root). */
function filesOf(abs: string): Set<string> | undefined {
  try {
    return new Set(
      readdirSync(abs, { withFileTypes: true })
        .filter((e) => e.isFile() || e.isSymbolicLink())
        .map((e) => e.name),
    );
  } catch {
    return undefined;
  }
}

function fromManifest(m: ManifestCommands): DeclaredCommand[] {
  return Object.entries(m.commands).map(([name, line]) => {
    const kind = kindOf(name) ?? kindOfLine(line);
    return {
      ...(kind ? { kind } : {}),
      ...(name === kind ? {} : { name }),
      command: line,
      ...(m.path === '.' ? {} : { dir: m.path }),
      source: 'manifest',
    };
  });
}

/**
 * The build, test and lint commands of one repository, each with where it came from, in this order: the
 * manifest's component `commands` (all of them, whatever their name), then what the root declares (package.json
 * scripts, Makefile targets, pyproject/hatch/PDM/poe scripts, tox, nox, pytest and ruff configuration), the Go
 * and Cargo conventions, the CI files' run lines, and then the same for each further folder. A command line
 * already listed for the same folder is not repeated. Files are read bounded, regular files inside the checkout
 * only; an unreadable or invalid file contributes nothing.
 */
export function detectCommands(input: DetectInput): DeclaredCommand[] {
  const out: DeclaredCommand[] = [];
  const seen = new Set<string>();
  const add = (list: DeclaredCommand[]) => {
    for (const c of list) {
      // A line break or control character in a name from a file is no command anyone meant (and could end
      // the comment a shell prompt puts it in).
      if (CONTROL.test(c.command) || (c.name !== undefined && CONTROL.test(c.name))) continue;
      const key = `${c.dir ?? '.'}\u0000${c.command}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(c);
    }
  };
  for (const m of input.manifest ?? []) add(fromManifest(m));
  const root = input.root;
  if (root === undefined) return out;
  const rootFiles = filesOf(root);
  if (!rootFiles) return out;
  const folder = (dir: string, files: ReadonlySet<string>): Folder => ({ root, dir, files, rootFiles });
  for (const d of DETECTORS) add(d(folder('.', rootFiles)));
  add(ciCommands(root));
  const dirs = new Set<string>();
  for (const raw of input.dirs ?? []) {
    const n = normalizeRelPath(raw);
    if (!n.escapes && n.path !== '.') dirs.add(n.path);
  }
  for (const dir of [...dirs].slice(0, COMMAND_LIMITS.maxDirs)) {
    const real = resolveReal(root, dir);
    const files = real ? filesOf(real) : undefined;
    if (!files) continue;
    for (const d of DETECTORS) add(d(folder(dir, files)));
  }
  return out;
}
