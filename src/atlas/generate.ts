import { runGit, sha256Hex, ValidationError, writeFileUnder } from '../infra/index.js';
import { dumpPlainYaml, yaml } from '../model/index.js';
import { atlasPlace, noAtlas } from './atlas-dir.js';
import { EXTRACTORS, extractFile } from './extract.js';
import type { FoundSymbol, FoundTest } from './extract-types.js';
import { distinctIds, idSegment, pathId } from './ids.js';
import { buildIndex } from './index-file.js';
import { GENERATED_FILES, INDEX_FILE } from './layout.js';
import {
  type AtlasIssue,
  checkReferences,
  type LoadedAtlas,
  listAtlas,
  loadAtlas,
  readAtlasFile,
} from './load.js';
import { ATLAS_API_VERSION, type Entity, type Inventory, type Manifests, type Skipped } from './schemas.js';
import { type SourceFile, scanSources } from './sources.js';

export interface GenerateInput {
  cwd: string;
  path?: string;
  /** Recorded in manifests.yaml as why the generated files were rebuilt. */
  invalidationReason?: string | null;
}

export interface GenerateResult {
  path: string;
  repository: string;
  revision: string | null;
  observed_at: string | null;
  files: number;
  languages: Record<string, number>;
  symbols: number;
  verifications: number;
  skipped: Skipped;
  source_fingerprint: string;
  invalidation_reason: string | null;
  written: string[];
  /** Problems of curated files met while indexing (run `hub atlas validate` for all of them). */
  issues: AtlasIssue[];
}

/** The HEAD commit and its committer time (UTC), or nulls outside a git repository with commits. */
export async function headCommit(root: string): Promise<{ revision: string | null; at: string | undefined }> {
  const r = await runGit(['log', '-1', '--format=%H%x00%cI'], { cwd: root, timeoutMs: 30_000 });
  if (r.code !== 0) return { revision: null, at: undefined };
  const [sha, at] = r.stdout.trim().split('\0');
  if (!sha || !at) return { revision: null, at: undefined };
  return { revision: sha, at: new Date(at).toISOString() };
}

/** YAML text of a generated file: block style, no folding, the same bytes for the same value. */
export function generatedYaml(value: unknown): string {
  return dumpPlainYaml(value);
}

interface Found {
  file: SourceFile;
  symbols: FoundSymbol[];
  tests: FoundTest[];
}

const byFileLine = <T extends { file: SourceFile; line: number; name: string }>(a: T, b: T) =>
  a.file.path < b.file.path
    ? -1
    : a.file.path > b.file.path
      ? 1
      : a.line - b.line || (a.name < b.name ? -1 : 1);

function provenance(at: string | undefined): Entity['metadata']['provenance'] {
  return at ? { source: 'generated', updatedAt: at } : { source: 'generated' };
}

function symbolEntities(found: Found[], at: string | undefined): Entity[] {
  const flat = found.flatMap((f) => f.symbols.map((s) => ({ ...s, file: f.file }))).sort(byFileLine);
  return distinctIds(
    flat,
    (s) =>
      `symbol:${pathId(s.file.path)}.${s.receiver ? `${idSegment(s.receiver)}.` : ''}${idSegment(s.name)}`,
  ).map(({ item: s, id }) => ({
    apiVersion: ATLAS_API_VERSION,
    kind: 'Symbol',
    metadata: { id, name: s.name, provenance: provenance(at) } as Entity['metadata'],
    spec: {
      symbolKind: s.kind,
      language: s.file.language,
      file: s.file.path,
      line: s.line,
      ...(s.receiver ? { receiver: s.receiver } : {}),
    },
  }));
}

function testEntities(found: Found[], at: string | undefined): Entity[] {
  const flat = found.flatMap((f) => f.tests.map((t) => ({ ...t, file: f.file }))).sort(byFileLine);
  return distinctIds(
    flat,
    (t) => `verification:${pathId(t.file.path)}.${t.name.split(' > ').map(idSegment).join('.')}`,
  ).map(({ item: t, id }) => ({
    apiVersion: ATLAS_API_VERSION,
    kind: 'Verification',
    metadata: { id, name: t.name, provenance: provenance(at) } as Entity['metadata'],
    spec: { framework: t.framework, language: t.file.language, file: t.file.path, line: t.line },
  }));
}

/** Only the curated files are parsed: the generated ones are what this run writes. */
function loadCurated(dir: string): LoadedAtlas {
  const listing = listAtlas(dir);
  const generated = new Set<string>(GENERATED_FILES);
  return loadAtlas(
    dir,
    { ...listing, files: listing.files.filter((f) => !generated.has(f)) },
    { relations: false },
  );
}

/**
 * Rebuilds `generated/` from the sources: the inventory, exported symbols and tests (tree-sitter), and
 * manifests.yaml with the content hash of each file, the source fingerprint and why it was rebuilt. Times are the
 * HEAD commit's, so two runs on one commit write the same bytes. Curated folders are never written. Then the
 * index is rebuilt and atlas.yaml's `sources.generated` set to `fresh`.
 */
export async function generateAtlas(input: GenerateInput): Promise<GenerateResult> {
  const place = atlasPlace(input.cwd, input.path);
  if (!place.exists) throw noAtlas(input.path);
  const curated = loadCurated(place.dir);
  const atlasFile = curated.atlas;
  if (!atlasFile) {
    const first = curated.issues.find((i) => i.file === 'atlas.yaml');
    throw new ValidationError(
      `.atlas/atlas.yaml: ${first?.message ?? 'is missing'} (rule ${first?.rule ?? 'required'}); fix it or run \`hub atlas init\``,
      { file: '.atlas/atlas.yaml', rule: first?.rule ?? 'required' },
    );
  }
  const policyIssue = curated.issues.find(
    (i) => i.file === 'policy/generation.yaml' && i.severity === 'error',
  );
  if (policyIssue)
    throw new ValidationError(`.atlas/policy/generation.yaml: ${policyIssue.message}`, {
      file: '.atlas/policy/generation.yaml',
      rule: policyIssue.rule,
    });
  const policy = curated.other['policy/generation.yaml'] as
    | { maxFileBytes?: number; exclude?: string[] }
    | undefined;
  const [scan, head] = await Promise.all([
    scanSources(place.root, { maxFileBytes: policy?.maxFileBytes, exclude: policy?.exclude, keepText: true }),
    headCommit(place.root),
  ]);
  const parsed = scan.files.filter((f) => f.language && f.text !== undefined);
  const found: Found[] = [];
  if (parsed.length > 0) {
    // The parser (WebAssembly) loads only when there is something to parse.
    const { createParsers } = await import('./parsers.js');
    const parsers = await createParsers();
    for (const file of parsed) {
      const r = await extractFile(parsers, file.language!, file.path, file.text!);
      if (r.symbols.length || r.tests.length) found.push({ file, ...r });
      file.text = undefined;
    }
  }
  const languages: Record<string, number> = {};
  for (const f of scan.files) if (f.language) languages[f.language] = (languages[f.language] ?? 0) + 1;
  const observed = head.at ? { observedAt: head.at } : {};
  const inventory: Inventory = {
    apiVersion: ATLAS_API_VERSION,
    ...observed,
    files: scan.files.map((f) => ({ path: f.path, language: f.language, bytes: f.bytes, sha256: f.sha256 })),
    skipped: scan.skipped,
  };
  const symbols = symbolEntities(found, head.at);
  const tests = testEntities(found, head.at);
  const texts: Record<string, string> = {
    'generated/inventory.yaml': generatedYaml(inventory),
    'generated/symbols.yaml': generatedYaml({
      apiVersion: ATLAS_API_VERSION,
      ...observed,
      entities: symbols,
    }),
    'generated/verifications.yaml': generatedYaml({
      apiVersion: ATLAS_API_VERSION,
      ...observed,
      entities: tests,
    }),
  };
  const manifests: Manifests = {
    apiVersion: ATLAS_API_VERSION,
    revision: head.revision,
    ...observed,
    extractors: EXTRACTORS,
    contentHashes: Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, sha256Hex(v)])),
    sourceFingerprint: scan.fingerprint,
    invalidationReason: input.invalidationReason ?? null,
  };
  texts['generated/manifests.yaml'] = generatedYaml(manifests);
  for (const [rel, text] of Object.entries(texts)) writeFileUnder(place.dir, rel, text);
  const written = Object.keys(texts).map((k) => `.atlas/${k}`);
  if (markFresh(place.dir)) written.push('.atlas/atlas.yaml');
  // The index: curated entities as read, generated ones as written (parsing what was just written costs seconds).
  const all = loadCurated(place.dir);
  for (const [rel, list] of [
    ['generated/symbols.yaml', symbols],
    ['generated/verifications.yaml', tests],
  ] as const)
    for (const e of list)
      if (!all.entities.has(e.metadata.id))
        // As a reader sees them: the schema's defaults (lifecycle, classification) filled in.
        all.entities.set(e.metadata.id, { entity: withDefaults(e), file: rel });
  for (const [rel, text] of Object.entries(texts)) all.hashes[rel] = sha256Hex(text);
  checkReferences(all);
  writeFileUnder(place.dir, INDEX_FILE, JSON.stringify(buildIndex(all)));
  return {
    path: place.root,
    repository: atlasFile.repository,
    revision: head.revision,
    observed_at: head.at ?? null,
    files: scan.files.length,
    languages,
    symbols: symbols.length,
    verifications: tests.length,
    skipped: scan.skipped,
    source_fingerprint: scan.fingerprint,
    invalidation_reason: manifests.invalidationReason,
    written,
    issues: all.issues,
  };
}

/** Sets `sources.generated: fresh` in atlas.yaml, keeping its comments; true when the file changed. */
function markFresh(dir: string): boolean {
  const read = readAtlasFile(dir, 'atlas.yaml');
  if ('issue' in read) return false;
  const text = read.bytes.toString('utf8');
  const doc = yaml().parseDocument(text);
  if (doc.getIn(['sources', 'generated']) === 'fresh') return false;
  doc.setIn(['sources', 'generated'], 'fresh');
  writeFileUnder(dir, 'atlas.yaml', doc.toString({ lineWidth: 0 }));
  return true;
}

/** A generated entity as a reader sees it: the schema's defaults for what generation leaves out. */
function withDefaults(e: Entity): Entity {
  // Generated metadata leaves the defaults out of the file (the type says they are there once read).
  const m: Partial<Entity['metadata']> = e.metadata;
  return {
    ...e,
    metadata: {
      ...e.metadata,
      lifecycle: m.lifecycle ?? 'active',
      classification: m.classification ?? 'internal',
      owners: m.owners ?? [],
      labels: m.labels ?? {},
    },
  };
}
