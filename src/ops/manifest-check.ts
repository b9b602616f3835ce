import { Catalog, Checkouts, catalogWarnings, type Problem, validateCatalog } from '../catalog/index.js';
import { ValidationError } from '../infra/index.js';
import { type ManifestFile, manifestByteLimit, parseManifestText, readManifestFile } from '../model/index.js';
import { indexedNames } from '../org/index.js';
import type { OpContext } from './context.js';
import { reservedProjectNames } from './reserved-names.js';

export interface ManifestCheck {
  valid: boolean;
  file: string;
  counts: { projects: number; repos: number; components: number; relationships: number };
  problems: Problem[];
  /** What is allowed but probably not meant (a near miss of a recommended kind); never makes it invalid. */
  warnings: Problem[];
  legacy: Array<{ path: string; from: string; to: string }>;
}

/**
 * Every rule of `hub config validate` on the manifest at `path`: syntax and schema, the catalog rules, the
 * filesystem rules of checked-out repos, reserved project names. `init` asks the same question before it calls
 * a manifest valid, so the two never disagree.
 */
/** The configured manifest size limit, read only when a manifest is larger than the default. */
export function configuredManifestLimit(ctx: OpContext): () => number {
  return () => ctx.appConfig().config.workspace.manifest_max_bytes;
}

export function checkManifest(ctx: OpContext, path: string): ManifestCheck {
  return checkManifestFile(ctx, path).check;
}

/**
 * The same check of `text` as if it were the manifest at `path` (a draft: Config Studio's preview), with the
 * parsed file when it passed the schema.
 */
export function checkManifestFile(
  ctx: OpContext,
  path: string,
  text?: string,
  filesystem = true,
): { check: ManifestCheck; file?: ManifestFile } {
  const empty = { projects: 0, repos: 0, components: 0, relationships: 0 };
  let file: ManifestFile;
  try {
    const configured = configuredManifestLimit(ctx);
    file =
      text === undefined
        ? readManifestFile(path, configured)
        : parseManifestText(text, path, { maxBytes: manifestByteLimit(Buffer.byteLength(text), configured) });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const issues = (err.details?.issues as Problem[] | undefined) ?? [
      {
        path: '(file)',
        line: err.details?.line as number | undefined,
        rule: String(err.details?.rule ?? 'syntax'),
        message: err.message,
      },
    ];
    return { check: { valid: false, file: path, counts: empty, problems: issues, warnings: [], legacy: [] } };
  }
  return { check: checkParsedManifest(ctx, file, filesystem), file };
}

/** The rules of `checkManifest` beyond syntax and schema, on a manifest already parsed (an edit not yet written). */
export function checkParsedManifest(ctx: OpContext, file: ManifestFile, filesystem = true): ManifestCheck {
  const catalog = new Catalog(file);
  let reserved: string[] = [];
  const problems: Problem[] = [];
  try {
    reserved = reservedProjectNames(ctx.appConfig().config);
  } catch (err) {
    const rule = (err as { details?: { rule?: unknown } }).details?.rule;
    problems.push({
      path: '(application config)',
      rule: typeof rule === 'string' ? rule : 'appconfig',
      message: (err as Error).message,
    });
  }
  // An application config that does not load is reported above; its allowed folders then count as none.
  const allowed = () => {
    try {
      return ctx.appConfig().config.workspace.allowed_outside_paths;
    } catch {
      return [];
    }
  };
  const checkouts = new Checkouts(file.root, allowed);
  // No spread: a manifest may yield hundreds of thousands of problems, more than the stack holds as arguments.
  const externalRepo = indexedNames(file.root).has;
  for (const p of validateCatalog(catalog, { filesystem, reservedNames: reserved, checkouts, externalRepo }))
    problems.push(p);
  return {
    valid: problems.length === 0,
    file: file.path,
    counts: {
      projects: file.manifest.workspace?.projects?.length ?? 0,
      repos: catalog.repos.length,
      components: catalog.components.length,
      relationships: file.manifest.graph?.relationships?.length ?? 0,
    },
    problems,
    warnings: catalogWarnings(catalog),
    legacy: file.legacy.map((l) => ({ path: l.path.join('.'), from: l.from, to: l.to })),
  };
}
