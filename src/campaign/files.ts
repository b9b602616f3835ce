import { lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Document } from 'yaml';
import { didYouMean, suggestionText } from '../catalog/index.js';
import {
  isInside,
  NotFoundError,
  normalizeRelPath,
  RefusedError,
  resolveReal,
  tryReadFileBounded,
  ValidationError,
  writeFileUnder,
} from '../infra/index.js';
import {
  decodeUtf8,
  parseYamlSource,
  renderKeepingSource,
  snapshotYaml,
  throwIssues,
  YAML_LIMITS,
  type YamlSource,
  yaml,
  yamlToJs,
  zodIssues,
} from '../model/index.js';
import { acquireLock, type LockOptions } from '../state/index.js';
import { setField } from './edit.js';
import { type LegacySpelling, normalizeLegacy, normalizeLegacyInDocument } from './legacy.js';
import { CAMPAIGN_KEYS, CAMPAIGN_LIMITS, type Campaign, CampaignSchema, SLUG_RE } from './schema.js';

/** Where a workspace keeps its campaign documents. */
export interface CampaignPlace {
  /** The manifest's folder. */
  root: string;
  /** `workspace.campaigns_path` as configured (`_campaigns/`). */
  configured: string;
  /** The folder, absolute (it may not exist yet). */
  dir: string;
}

/** The rule a campaigns folder outside the manifest's folder breaks. */
export const CAMPAIGNS_PATH_RULE = 'campaigns_path_inside_root';

/** YAML bounds of a campaign file: far below a manifest's, since a campaign is a short list. */
const YAML_BOUNDS = {
  ...YAML_LIMITS,
  maxBytes: CAMPAIGN_LIMITS.file_bytes,
  maxNodeDepth: CAMPAIGN_LIMITS.yaml_depth,
  maxItems: CAMPAIGN_LIMITS.repos * 2,
  maxNodes: 200_000,
  maxTokens: 600_000,
};

/** Waits of one campaign write for another to the same file (they are short: one small file each). */
export const CAMPAIGN_LOCK: LockOptions = { timeoutMs: 15_000, staleMs: 10_000 };

function outside(place: Pick<CampaignPlace, 'configured' | 'root'>): RefusedError {
  return new RefusedError(
    `workspace.campaigns_path '${place.configured}' lies outside the workspace ${place.root} (through '..', an absolute path or a symbolic link); campaigns live inside the manifest's folder (rule ${CAMPAIGNS_PATH_RULE})`,
    { field: 'workspace.campaigns_path', value: place.configured, rule: CAMPAIGNS_PATH_RULE },
  );
}

/**
 * The campaigns folder of a workspace: `configured` (relative to the manifest's folder, or absolute inside it).
 * Refused when it leaves that folder, also through a symbolic link: a cloned workspace must not make hub read
 * or write campaign files elsewhere.
 */
export function campaignPlace(root: string, configured: string): CampaignPlace {
  const given = configured.trim();
  const n = normalizeRelPath(given === '' ? '_campaigns' : given);
  const place = { root, configured };
  let dir: string;
  if (isAbsolute(given)) {
    dir = resolve(given);
    if (!isInside(resolve(root), dir) || dir === resolve(root)) throw outside(place);
  } else {
    if (n.escapes || n.path === '.') throw outside(place);
    dir = resolve(root, n.path);
  }
  if (resolveReal(root, dir) === undefined) throw outside(place);
  return { ...place, dir };
}

/** The folder's real path, checked again at each use (a symlink may have been planted since). */
function realDir(place: CampaignPlace): string {
  const real = resolveReal(place.root, place.dir);
  if (real === undefined) throw outside(place);
  return real;
}

/** Checks a slug strictly: it becomes a file name and a prefix of objective ids. */
export function checkSlug(slug: string, field = 'slug'): string {
  if (!SLUG_RE.test(slug))
    throw new ValidationError(
      `${field}: '${slug.slice(0, 80)}' is not a campaign slug: use lowercase letters, digits and single hyphens (at most ${CAMPAIGN_LIMITS.slug_chars}), e.g. bump-logging`,
      { field, value: slug.slice(0, 200), rule: 'campaign_slug' },
    );
  return slug;
}

/** A campaign file hub did not read, and why. */
export interface CampaignFileProblem {
  file: string;
  slug?: string;
  rule: string;
  message: string;
}

/** The campaign files of the folder (`<slug>.yml`, regular files only), by slug, and the entries left out. */
export function listCampaignFiles(place: CampaignPlace): {
  files: Array<{ slug: string; path: string }>;
  problems: CampaignFileProblem[];
} {
  const real = realDir(place);
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(real, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { files: [], problems: [] };
    if (code === 'ENOTDIR')
      throw new ValidationError(`workspace.campaigns_path '${place.configured}' is not a folder`, {
        field: 'workspace.campaigns_path',
        value: place.configured,
        rule: 'folder',
      });
    throw err;
  }
  const files: Array<{ slug: string; path: string }> = [];
  const problems: CampaignFileProblem[] = [];
  const shown = (name: string) => relPath(place, join(real, name));
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const m = /^(.*)\.(yml|yaml)$/.exec(e.name);
    if (!m) continue;
    const slug = m[1]!;
    const file = shown(e.name);
    if (m[2] === 'yaml') {
      problems.push({
        file,
        rule: 'file_extension',
        message: `${file}: campaign files are named <slug>.yml; rename it to ${slug}.yml`,
      });
      continue;
    }
    if (!SLUG_RE.test(slug)) {
      problems.push({
        file,
        rule: 'campaign_slug',
        message: `${file}: '${slug.slice(0, 80)}' is not a campaign slug (lowercase letters, digits, single hyphens)`,
      });
      continue;
    }
    if (!e.isFile()) {
      problems.push({
        file,
        slug,
        rule: 'regular_file',
        message: `${file}: not a regular file (a symbolic link, folder or device is never read)`,
      });
      continue;
    }
    if (files.length >= CAMPAIGN_LIMITS.files) {
      problems.push({
        file,
        slug,
        rule: 'max_files',
        message: `${file}: left out; hub reads at most ${CAMPAIGN_LIMITS.files} campaign files`,
      });
      continue;
    }
    files.push({ slug, path: join(real, e.name) });
  }
  return { files, problems };
}

/** A path for messages: relative to the manifest's folder. */
export function relPath(place: Pick<CampaignPlace, 'root'>, abs: string): string {
  const realRoot = resolveReal(place.root, place.root) ?? place.root;
  const rel = relative(realRoot, abs);
  return rel === '' || rel.startsWith('..') ? abs : rel.split('\\').join('/');
}

/** A campaign read from its file. */
export interface LoadedCampaign {
  campaign: Campaign;
  /** Real path of the file. */
  path: string;
  /** The path relative to the manifest's folder (messages, results). */
  file: string;
  text: string;
  /** Older spellings read (written the current way on the next save). */
  legacy: LegacySpelling[];
  /** Top-level keys the format does not know (kept as they are). */
  unknown_keys: string[];
}

/** Parses campaign text: YAML within bounds, older spellings read, the schema checked (every issue listed). */
export function parseCampaignText(
  text: string,
  file: string,
): { campaign: Campaign; legacy: LegacySpelling[]; unknown_keys: string[]; source: YamlSource } {
  const source = parseYamlSource(text, file, 'campaign', { limits: YAML_BOUNDS });
  const data = yamlToJs(source, 'campaign') ?? {};
  if (typeof data !== 'object' || Array.isArray(data))
    throw new ValidationError(`campaign ${file}: the document must be a mapping (slug, title, repos, ...)`, {
      file,
      rule: 'mapping',
    });
  const { value, legacy } = normalizeLegacy(data);
  const parsed = CampaignSchema.safeParse(value);
  if (!parsed.success) throwIssues(file, zodIssues(parsed.error, source), 'campaign');
  const unknown_keys = Object.keys(value as object).filter((k) => !CAMPAIGN_KEYS.has(k));
  return { campaign: parsed.data, legacy, unknown_keys, source };
}

function readText(place: CampaignPlace, slug: string, known: () => string[]): { path: string; text: string } {
  const dir = realDir(place);
  const path = join(dir, `${slug}.yml`);
  const r = tryReadFileBounded(path, {
    maxBytes: CAMPAIGN_LIMITS.file_bytes,
    root: dir,
    rootName: 'the campaigns folder',
  });
  const file = relPath(place, path);
  if (!r.ok && r.rule === 'exists') {
    const suggestions = didYouMean(slug, known());
    throw new NotFoundError(
      `slug: no campaign '${slug}' in ${place.configured}${suggestionText(suggestions)}`,
      {
        field: 'slug',
        value: slug,
        rule: 'known_campaign',
        suggestions,
      },
    );
  }
  if (!r.ok)
    throw new ValidationError(`campaign ${file} cannot be read: ${r.reason} (rule ${r.rule})`, {
      file,
      rule: r.rule,
      ...(r.rule === 'max_size' ? { limit: CAMPAIGN_LIMITS.file_bytes } : {}),
    });
  return { path: r.path, text: decodeUtf8(r.bytes, file, 'campaign') };
}

function loadFrom(place: CampaignPlace, slug: string, path: string, text: string) {
  const file = relPath(place, path);
  const parsed = parseCampaignText(text, file);
  if (parsed.campaign.slug !== slug)
    throw new ValidationError(
      `campaign ${file}: slug '${parsed.campaign.slug}' differs from the file name '${slug}.yml'; make them equal`,
      { file, field: 'slug', value: parsed.campaign.slug, rule: 'slug_matches_file' },
    );
  return { ...parsed, path, file, text };
}

const slugsOf = (place: CampaignPlace) => () => {
  try {
    return listCampaignFiles(place).files.map((f) => f.slug);
  } catch {
    return [];
  }
};

/** One campaign by slug; NotFoundError (with the nearest slugs) when there is none. */
export function readCampaign(place: CampaignPlace, slug: string): LoadedCampaign {
  checkSlug(slug);
  const { path, text } = readText(place, slug, slugsOf(place));
  const { source: _s, ...loaded } = loadFrom(place, slug, path, text);
  return loaded;
}

/** Runs `fn` holding the campaign's write lock (under `.hub/locks/campaigns/`, inside the workspace). */
async function withCampaignLock<T>(
  place: CampaignPlace,
  slug: string,
  lock: LockOptions,
  fn: () => T,
): Promise<T> {
  const rel = join('.hub', 'locks', 'campaigns');
  const where = () => resolveReal(place.root, rel);
  const refused = () =>
    new RefusedError(`refusing to lock campaign '${slug}': ${rel} lies outside the workspace`, {
      field: 'slug',
      value: slug,
      rule: 'inside_root',
    });
  const dir = where();
  if (!dir) throw refused();
  mkdirSync(dir, { recursive: true });
  if (where() !== dir) throw refused();
  const held = await acquireLock(join(dir, `${slug}.lock`), lock);
  try {
    return fn();
  } finally {
    held.release();
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Text of a new campaign document: a comment saying what it is, then the fields in the format's order. */
export function campaignText(campaign: Campaign): string {
  const doc = new (yaml().Document)(campaign);
  doc.commentBefore = ` Campaign '${campaign.slug}': one change across many repositories (hub campaign; commit it).`;
  return doc.toString({ lineWidth: 0 });
}

/** Writes a new campaign file; RefusedError (409) when the slug is taken. */
export async function createCampaignFile(
  place: CampaignPlace,
  campaign: Campaign,
  lock: LockOptions = CAMPAIGN_LOCK,
): Promise<LoadedCampaign> {
  const slug = checkSlug(campaign.slug);
  const text = campaignText(campaign);
  const checked = parseCampaignText(text, `${slug}.yml`).campaign;
  return withCampaignLock(place, slug, lock, () => {
    const dir = realDir(place);
    // Anything at that name (a file, a symlink, a folder) is taken: it is never replaced.
    if (lstatOrUndefined(join(dir, `${slug}.yml`)) !== undefined)
      throw new RefusedError(
        `slug: campaign '${slug}' already exists in ${place.configured}; choose another slug`,
        { field: 'slug', value: slug, rule: 'campaign_exists' },
        409,
      );
    const written = writeFileUnder(place.root, relative(place.root, join(place.dir, `${slug}.yml`)), text);
    return {
      campaign: checked,
      path: written,
      file: relPath(place, written),
      text,
      legacy: [],
      unknown_keys: [],
    };
  });
}

/**
 * Edits a campaign file through the YAML Document API, under its write lock: older spellings are normalized,
 * `edit` changes nodes, `updated` is stamped, and only the lines that changed are written (comments and every
 * other line keep their bytes). The result is checked against the schema before it is written atomically; on
 * any failure nothing is written.
 */
export async function updateCampaign<R>(
  place: CampaignPlace,
  slug: string,
  edit: (doc: Document.Parsed, campaign: Campaign) => R,
  opts: { now: Date; lock?: LockOptions },
): Promise<{ loaded: LoadedCampaign; result: R; changed: boolean }> {
  checkSlug(slug);
  return withCampaignLock(place, slug, opts.lock ?? CAMPAIGN_LOCK, () => {
    const { path, text } = readText(place, slug, slugsOf(place));
    const before = loadFrom(place, slug, path, text);
    const doc = before.source.doc;
    const snap = snapshotYaml(text, doc);
    normalizeLegacyInDocument(doc);
    const result = edit(doc, before.campaign);
    setField(doc, 'updated', opts.now.toISOString());
    const next = renderKeepingSource(snap, doc);
    const after = loadFrom(place, slug, path, next);
    const changed = next !== text;
    if (changed) writeFileUnder(place.root, relative(place.root, join(place.dir, `${slug}.yml`)), next);
    const { source: _s, ...loaded } = after;
    return { loaded, result, changed };
  });
}
