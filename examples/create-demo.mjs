#!/usr/bin/env node
// Usage: node examples/create-demo.mjs <target-dir> [--force | --keep]
// Creates a demo workspace of real Git repositories and prints the manifest path on stdout.
// --force replaces a non-empty target; --keep leaves a demo that is already there (it has a .hub.yml) as it is.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDemo } from './demo-workspace.mjs';

const USAGE = 'usage: node examples/create-demo.mjs <target-dir> [--force | --keep]\n';
const FLAGS = ['--force', '--keep'];
const args = process.argv.slice(2);
const force = args.includes('--force');
const keep = args.includes('--keep');
const positional = args.filter((a) => !a.startsWith('-'));
const unknown = args.filter((a) => a.startsWith('-') && !FLAGS.includes(a) && a !== '-h' && a !== '--help');

if (args.includes('-h') || args.includes('--help')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (positional.length !== 1 || unknown.length > 0 || (force && keep)) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const target = resolve(positional[0]);
// `npm start` runs with --keep: a second start must not throw away what the tour (or you) did in the demo.
if (keep && existsSync(join(target, '.hub.yml'))) {
  const root = realpathSync(target);
  process.stderr.write(
    `kept the demo workspace in ${root} as it is, with what was done in it; ` +
      `for a fresh one: node examples/create-demo.mjs ${positional[0]} --force\n`,
  );
  process.stdout.write(`${join(root, '.hub.yml')}\n`);
  process.exit(0);
}
if (keep && existsSync(target) && readdirSync(target).length > 0) {
  process.stderr.write(
    `create-demo: ${target} is not empty and holds no .hub.yml: not a demo workspace, left alone (move it, or pick another folder)\n`,
  );
  process.exit(1);
}

try {
  const { manifestPath } = createDemo(positional[0], {
    force,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${manifestPath}\n`);
} catch (err) {
  process.stderr.write(`create-demo: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
