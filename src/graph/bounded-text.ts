import { parse as parseToml } from '@decimalturn/toml-patch';
import { nestingMessage, tomlNestingViolation, ValidationError } from '../infra/index.js';
import { yaml, yamlStructureViolation } from '../model/index.js';

/**
 * Package files come with the clone: nesting is measured before a parser recurses on it (toml-patch and the YAML
 * composer overflow the stack a few thousand levels down, and toml-patch runs out of memory on a long dotted
 * key). The refusal carries its rule, which the scan reports as the file's skip rule.
 */
export function parseTomlBounded(text: string): Record<string, unknown> {
  const deep = tomlNestingViolation(text);
  if (deep) throw new ValidationError(nestingMessage(deep), { ...deep });
  return parseToml(text) as Record<string, unknown>;
}

/** YAML data of a package file (Chart.yaml), after the structure checks hub's own YAML loads make. */
export function parseYamlBounded(text: string, opts: { maxAliasCount: number }): unknown {
  const bad = yamlStructureViolation(text);
  if (bad) throw new ValidationError(bad.reason, { rule: bad.rule, line: bad.line, limit: bad.limit });
  return yaml().parse(text, { maxAliasCount: opts.maxAliasCount, uniqueKeys: false });
}
