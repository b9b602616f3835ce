// Baseline of bench/validate-large.mjs: a fresh node process that only reads and parses one YAML file.
// Usage: node bench/lib/parse-yaml.mjs <file>
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bench/lib/parse-yaml.mjs <file>\n');
  process.exit(2);
}
const value = parse(readFileSync(file, 'utf8'), { maxAliasCount: 100 });
// Touch the result so the parse cannot be skipped, and prove it parsed the whole file.
process.stdout.write(`${value?.workspace?.projects?.length ?? 0}\n`);
