import type { SourceIssue, YamlSource } from './yaml-source.js';
import { formatPath, positionOf } from './yaml-source.js';

/**
 * Limits on what a manifest declares, checked on the plain data right after parsing and before the schema, the
 * catalog, validation or the graph see it. YAML_LIMITS bound the file's size, nesting, nodes and list lengths;
 * these bound what the catalog's work grows with. Each is far above a real workspace (the AOSP manifest imports to
 * ~1,000 repos; bench/validate-large.mjs catalogs 5,000 repos of 10 components) and each refuses in one pass.
 */
export const MANIFEST_LIMITS = {
  /** Components of one repository (or of an application manifest's `paths` and `components` together). */
  maxComponentsPerRepo: 10_000,
  /** `depends_on` entries of one component. */
  maxDependsOn: 1_000,
  /** `depends_on` entries of the whole manifest: the edges validation and the graph walk. */
  maxDependsOnTotal: 250_000,
} as const;

export type ManifestLimits = { -readonly [K in keyof typeof MANIFEST_LIMITS]: number };

/**
 * The limits for a manifest read under a size limit of `maxBytes`: past the default 8 MiB the depends_on total
 * (what validation and the graph walk grow with) grows in proportion, like the YAML node budget.
 */
export function manifestLimitsFor(maxBytes: number): ManifestLimits {
  const f = Math.max(1, maxBytes / (8 * 1024 * 1024));
  return { ...MANIFEST_LIMITS, maxDependsOnTotal: Math.ceil(MANIFEST_LIMITS.maxDependsOnTotal * f) };
}

type Path = Array<string | number>;
type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const listAt = (o: Obj, key: string): unknown[] => (Array.isArray(o[key]) ? (o[key] as unknown[]) : []);

/**
 * The first limit the manifest's data breaks, as an issue with its path and line, or undefined. Shapes the schema
 * would refuse are skipped here: the schema reports them.
 */
export function manifestLimitIssue(
  data: unknown,
  src: YamlSource | undefined,
  limits: ManifestLimits = MANIFEST_LIMITS,
): SourceIssue | undefined {
  if (!isObject(data)) return undefined;
  const issue = (path: Path, rule: string, limit: number, message: string): SourceIssue => {
    const pos = src ? positionOf(src, path) : undefined;
    return {
      path: formatPath(path),
      line: pos?.line,
      column: pos?.column,
      rule,
      message: `${message} (${rule}, limit ${limit})`,
    };
  };
  // Every group of components that forms one repository: [components, path of each list].
  const groups: Array<Array<{ list: unknown[]; at: Path }>> = [];
  const app = [
    { list: listAt(data, 'paths'), at: ['paths'] },
    { list: listAt(data, 'components'), at: ['components'] },
  ];
  groups.push(app);
  const ws = isObject(data.workspace) ? data.workspace : {};
  listAt(ws, 'projects').forEach((p, pi) => {
    if (!isObject(p)) return;
    listAt(p, 'repos').forEach((r, ri) => {
      if (!isObject(r)) return;
      const at: Path = ['workspace', 'projects', pi, 'repos', ri, 'components'];
      groups.push([{ list: listAt(r, 'components'), at }]);
    });
  });
  let total = 0;
  for (const group of groups) {
    const size = group.reduce((n, g) => n + g.list.length, 0);
    if (size > limits.maxComponentsPerRepo) {
      const at = group.find((g) => g.list.length > 0)!.at;
      return issue(
        at,
        'max_components_per_repo',
        limits.maxComponentsPerRepo,
        `${size} components in one repository; the limit is ${limits.maxComponentsPerRepo}`,
      );
    }
    for (const { list, at } of group) {
      for (let i = 0; i < list.length; i++) {
        const c = list[i];
        if (!isObject(c) || !Array.isArray(c.depends_on)) continue;
        const n = c.depends_on.length;
        if (n > limits.maxDependsOn)
          return issue(
            [...at, i, 'depends_on'],
            'max_depends_on',
            limits.maxDependsOn,
            `${n} depends_on entries in one component; the limit is ${limits.maxDependsOn}`,
          );
        total += n;
        if (total > limits.maxDependsOnTotal)
          return issue(
            [...at, i, 'depends_on'],
            'max_depends_on_total',
            limits.maxDependsOnTotal,
            `more than ${limits.maxDependsOnTotal} depends_on entries in the manifest (this component's take it past the limit)`,
          );
      }
    }
  }
  return undefined;
}
