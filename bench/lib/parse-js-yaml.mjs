// Baseline of bench/manifest-read.mjs: a fresh node process that only reads one YAML file and parses it with
// js-yaml (the fastest maintained YAML parser measured, docs/decisions.md), nothing else.
// Usage: node bench/lib/parse-js-yaml.mjs <file>
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/lib/parse-js-yaml.mjs <file>\n');
  process.exit(2);
}
const value = load(readFileSync(file, 'utf8'));
// Touch the result so the parse cannot be skipped, and prove it parsed the whole file.
process.stdout.write(`${value?.workspace?.projects?.length ?? 0}\n`);
