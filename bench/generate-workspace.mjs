#!/usr/bin/env node
// Usage: node bench/generate-workspace.mjs <dir> --repos N [--components 10] [--dirs] [--seed 42]
// Writes <dir>/.hub.yml (and with --dirs the component directories); prints a JSON summary on stdout.
import { parseArgs } from 'node:util';
import { generateWorkspace } from './lib/generate.mjs';

const usage =
  'usage: node bench/generate-workspace.mjs <dir> --repos N [--components 10] [--dirs] [--seed 42]';
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      repos: { type: 'string' },
      components: { type: 'string', default: '10' },
      dirs: { type: 'boolean', default: false },
      seed: { type: 'string', default: '42' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (err) {
  process.stderr.write(`${err.message}\n${usage}\n`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const int = (name, raw) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer (got ${raw})\n${usage}\n`);
    process.exit(2);
  }
  return n;
};
if (positionals.length !== 1 || values.repos === undefined) {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
try {
  const summary = generateWorkspace(positionals[0], {
    repos: int('repos', values.repos),
    components: int('components', values.components),
    dirs: values.dirs,
    seed: int('seed', values.seed),
  });
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} catch (err) {
  process.stderr.write(`error: ${err.message}\n${usage}\n`);
  process.exit(2);
}
