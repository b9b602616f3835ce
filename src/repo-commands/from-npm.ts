import { command, type Detector, type Folder } from './folder.js';
import { at, COMMAND_LIMITS, Lines, readRepoText, under } from './text.js';
import { type DeclaredCommand, kindOf, kindOfLine } from './types.js';

type Runner = 'npm' | 'pnpm' | 'yarn' | 'bun';

const LOCKFILES: Array<[string, Runner]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The package manager: `packageManager` (corepack) first, else a lockfile beside it or at the root, else npm. */
function runnerOf(data: Record<string, unknown>, folder: Folder): Runner {
  const pm = typeof data.packageManager === 'string' ? data.packageManager.split('@')[0] : undefined;
  if (pm === 'pnpm' || pm === 'yarn' || pm === 'bun' || pm === 'npm') return pm;
  for (const files of [folder.files, folder.rootFiles])
    for (const [lock, runner] of LOCKFILES) if (files.has(lock)) return runner;
  return 'npm';
}

function runLine(runner: Runner, name: string): string {
  if (name === 'test' && runner !== 'bun') return `${runner} test`;
  return runner === 'yarn' ? `yarn ${name}` : `${runner} run ${name}`;
}

/**
 * package.json `scripts`: each script whose name (else whose body) says build, test or lint, run with the
 * package manager the repository uses. `pre`/`post` hooks of another script are left out: they run with it.
 */
export const npmScripts: Detector = (folder) => {
  if (!folder.files.has('package.json')) return [];
  const file = under(folder.dir, 'package.json');
  const text = readRepoText(folder.root, file);
  if (text === undefined) return [];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isRecord(data) || !isRecord(data.scripts)) return [];
  const scripts = data.scripts;
  const runner = runnerOf(data, folder);
  const lines = new Lines(text);
  const from = text.indexOf('"scripts"');
  const out: DeclaredCommand[] = [];
  for (const [name, body] of Object.entries(scripts)) {
    if (out.length >= COMMAND_LIMITS.maxPerFile) break;
    const hook = /^(pre|post)(.+)$/.exec(name);
    if (hook && hook[2]! in scripts) continue;
    const kind = kindOf(name) ?? (typeof body === 'string' ? kindOfLine(body) : undefined);
    if (!kind) continue;
    out.push(
      command(folder, {
        kind,
        command: runLine(runner, name),
        source: at(file, lines.find(JSON.stringify(name), from)),
      }),
    );
  }
  return out;
};
