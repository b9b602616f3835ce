import type { Ecosystem, FileDeclarations } from './declarations.js';
import { parseCargo } from './parse-cargo.js';
import { parseGoMod, parseGoWork } from './parse-go.js';
import { parseGradleBuild, parseGradleSettings, parseVersionCatalog } from './parse-gradle.js';
import { parseChart, parseGitmodules } from './parse-helm-git.js';
import { parseLerna, parsePnpmWorkspace, parseRush } from './parse-js-workspaces.js';
import { parsePom } from './parse-maven.js';
import { parseNpm } from './parse-npm.js';
import { parsePyproject, parseRequirements } from './parse-python.js';

/** What a parser may ask besides its own text: a file beside it, its folder's name, the repository's URL. */
export interface ParseContext {
  dirName: string;
  repoUrl?: string;
  readSibling: (name: string) => string | undefined;
}

export type PackageFileParser = (text: string, file: string, ctx: ParseContext) => FileDeclarations;

export interface PackageFileKind {
  ecosystem: Ecosystem;
  parse: PackageFileParser;
  /** Only at the repository's root (submodules are declared there alone). */
  rootOnly?: boolean;
}

/** The package files read in each scanned folder, by exact name. */
export const PACKAGE_FILES: Record<string, PackageFileKind> = {
  'package.json': { ecosystem: 'npm', parse: parseNpm },
  // Workspace files that list JS members (nx and turbo use the package manager's list).
  'pnpm-workspace.yaml': { ecosystem: 'npm', parse: (t) => parsePnpmWorkspace(t), rootOnly: true },
  'lerna.json': { ecosystem: 'npm', parse: (t) => parseLerna(t), rootOnly: true },
  'rush.json': { ecosystem: 'npm', parse: (t) => parseRush(t), rootOnly: true },
  'go.mod': { ecosystem: 'go', parse: parseGoMod },
  'go.work': { ecosystem: 'go', parse: (t) => parseGoWork(t) },
  'pyproject.toml': { ecosystem: 'python', parse: parsePyproject },
  'Cargo.toml': { ecosystem: 'cargo', parse: parseCargo },
  'pom.xml': { ecosystem: 'maven', parse: parsePom },
  'build.gradle': { ecosystem: 'maven', parse: parseGradleBuild },
  'build.gradle.kts': { ecosystem: 'maven', parse: parseGradleBuild },
  'settings.gradle': { ecosystem: 'maven', parse: (t) => parseGradleSettings(t) },
  'settings.gradle.kts': { ecosystem: 'maven', parse: (t) => parseGradleSettings(t) },
  'Chart.yaml': { ecosystem: 'helm', parse: parseChart },
  '.gitmodules': { ecosystem: 'git', parse: parseGitmodules, rootOnly: true },
};

/** `requirements.txt`, `requirements-dev.txt`, `requirements_test.txt`, ... */
export const REQUIREMENTS_FILE = /^requirements(?:[-_.][\w.-]*)?\.txt$/;
const REQUIREMENTS: PackageFileKind = { ecosystem: 'python', parse: parseRequirements };

/** Files read at a fixed path below a scanned folder. */
export const NESTED_FILES: Record<string, PackageFileKind> = {
  'gradle/libs.versions.toml': { ecosystem: 'maven', parse: parseVersionCatalog },
};

/** The kind of a file found in a folder, by name; undefined when hub does not read it. */
export function packageFileKind(name: string, atRoot: boolean): PackageFileKind | undefined {
  const kind = PACKAGE_FILES[name];
  if (kind) return kind.rootOnly && !atRoot ? undefined : kind;
  return REQUIREMENTS_FILE.test(name) ? REQUIREMENTS : undefined;
}

/**
 * Folders read besides the root and the catalogued components: where charts usually live. A trailing `/*` is
 * one level of sub-folders.
 */
export const CONVENTIONAL_DIRS = ['chart', 'charts/*', 'helm', 'helm/*', 'deploy/*'];
