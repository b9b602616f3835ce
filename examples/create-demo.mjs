#!/usr/bin/env node
// Usage: node examples/create-demo.mjs <target-dir> [--force]
// Creates a demo workspace of real Git repositories and prints the manifest path on stdout.
import { createDemo } from './demo-workspace.mjs';

const args = process.argv.slice(2);
const force = args.includes('--force');
const positional = args.filter((a) => !a.startsWith('-'));
const unknown = args.filter((a) => a.startsWith('-') && a !== '--force');

if (args.includes('-h') || args.includes('--help')) {
  process.stdout.write('usage: node examples/create-demo.mjs <target-dir> [--force]\n');
  process.exit(0);
}
if (positional.length !== 1 || unknown.length > 0) {
  process.stderr.write('usage: node examples/create-demo.mjs <target-dir> [--force]\n');
  process.exit(2);
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
