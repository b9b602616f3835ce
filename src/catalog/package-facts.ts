import { parse as parseToml } from '@decimalturn/toml-patch';
import { XMLParser } from 'fast-xml-parser';

/**
 * What one marker file says about its folder: `package` (it names a package of its own), `workspace` (it only
 * gathers members: a private npm workspace root, a virtual Cargo manifest, a Maven aggregator), `none` (it
 * declares nothing: a `{"type": "module"}` package.json) or `unknown` (it names no package, or cannot be read).
 */
export type MarkerState = 'package' | 'workspace' | 'none' | 'unknown';

export interface MarkerFacts {
  state: MarkerState;
  /** The package the marker names (npm name, Go module path, crate, distribution, artifact, chart). */
  name?: string;
  /** The kind the marker itself says (a `bin` field, a `main` package, a library crate, a chart). */
  kind?: string;
}

/** What a marker reader may look at besides the marker: the names in its folder and a sibling file's text. */
export interface FolderView {
  has(name: string): boolean;
  /** Names in the folder (files and folders). */
  names: readonly string[];
  /** Text of a file of the folder (bounded, regular files only); undefined when it cannot be read. */
  read(name: string): string | undefined;
  /** A regular file at a path below the folder (`src/lib.rs`), symlinks not followed. */
  hasFile(rel: string): boolean;
}

/** Files whose presence beside a private root package.json make it a JS workspace root. */
export const JS_WORKSPACE_FILES = ['pnpm-workspace.yaml', 'lerna.json', 'rush.json'];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const hasEntries = (v: unknown) =>
  typeof v === 'string' ? v !== '' : isRecord(v) ? Object.keys(v).length > 0 : false;

function npmFacts(text: string, folder: FolderView): MarkerFacts {
  const data: unknown = JSON.parse(text);
  if (!isRecord(data)) return { state: 'unknown' };
  const name = str(data.name);
  const workspaces =
    Array.isArray(data.workspaces) || (isRecord(data.workspaces) && Array.isArray(data.workspaces.packages));
  const workspaceRoot = workspaces || JS_WORKSPACE_FILES.some((f) => folder.has(f));
  if (data.private === true && workspaceRoot) return { state: 'workspace', ...(name ? { name } : {}) };
  const importable = ['main', 'exports', 'module', 'types', 'typings'].some((k) => data[k] !== undefined);
  const runnable = hasEntries(data.bin);
  // Importable wins over runnable: a package with both is used as a library too (a build tool's API).
  const kind = importable ? 'library' : runnable ? 'cli' : data.private === true ? 'application' : 'library';
  if (name) return { state: 'package', name, kind };
  // No name: a stub (`{"type": "module"}`) declares nothing; one with scripts or dependencies is an unnamed app.
  const busy = ['scripts', 'dependencies', 'devDependencies', 'bin'].some((k) => hasEntries(data[k]));
  return busy ? { state: 'unknown', kind } : { state: 'none' };
}

/** The package clause of Go source: the first `package x` outside comments. */
const GO_PACKAGE = /^\s*package\s+([A-Za-z_][A-Za-z0-9_]*)/m;
const stripGoComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
const MAX_GO_FILES = 8;

function goFacts(text: string, folder: FolderView): MarkerFacts {
  const module = /^\s*module\s+("?)([^\s"]+)\1/m.exec(stripGoComments(text))?.[2];
  if (!module) return { state: 'unknown' };
  const sources = folder.names
    .filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'))
    .sort()
    .slice(0, MAX_GO_FILES);
  let kind: string | undefined;
  for (const f of sources) {
    const pkg = GO_PACKAGE.exec(stripGoComments(folder.read(f) ?? ''))?.[1];
    if (!pkg) continue;
    kind = pkg === 'main' ? 'application' : 'library';
    break;
  }
  // No Go file at the module root: commands under cmd/ make it an application.
  if (!kind && folder.has('cmd')) kind = 'application';
  return { state: 'package', name: module, ...(kind ? { kind } : {}) };
}

function cargoFacts(text: string, folder: FolderView): MarkerFacts {
  const data = parseToml(text) as Record<string, unknown>;
  if (!isRecord(data.package)) return { state: isRecord(data.workspace) ? 'workspace' : 'none' };
  const name = str(data.package.name);
  const lib = isRecord(data.lib) || folder.hasFile('src/lib.rs');
  const bin = Array.isArray(data.bin) || folder.hasFile('src/main.rs') || folder.has('fuzz_targets');
  const kind = lib ? 'library' : bin ? 'application' : undefined;
  return { state: name ? 'package' : 'unknown', ...(name ? { name } : {}), ...(kind ? { kind } : {}) };
}

function pythonFacts(text: string, folder: FolderView): MarkerFacts {
  const data = parseToml(text) as Record<string, unknown>;
  const tool = isRecord(data.tool) ? data.tool : {};
  const project = isRecord(data.project) ? data.project : {};
  const poetry = isRecord(tool.poetry) ? tool.poetry : {};
  const name = str(project.name) ?? str(poetry.name);
  if (name) return { state: 'package', name, kind: 'library' };
  if (isRecord(tool.uv) && isRecord(tool.uv.workspace)) return { state: 'workspace' };
  // A setup.py or setup.cfg beside it names the distribution; a tool-only pyproject may still sit in an app.
  return {
    state: 'unknown',
    ...(folder.has('setup.py') || folder.has('setup.cfg') ? { kind: 'library' } : {}),
  };
}

let xmlParser: XMLParser | undefined;
const xml = () =>
  (xmlParser ??= new XMLParser({
    ignoreAttributes: true,
    processEntities: false,
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  }));

function mavenFacts(text: string): MarkerFacts {
  const doc = xml().parse(text) as Record<string, unknown>;
  const project = isRecord(doc.project) ? doc.project : undefined;
  const artifact = project ? str(project.artifactId) : undefined;
  if (!project || !artifact) return { state: 'unknown' };
  const packaging = str(project.packaging) ?? 'jar';
  if (packaging === 'pom' && project.modules !== undefined && project.modules !== '')
    return { state: 'workspace', name: artifact };
  const kind =
    packaging === 'war' || packaging === 'ear' ? 'application' : packaging === 'pom' ? undefined : 'library';
  return { state: 'package', name: artifact, ...(kind ? { kind } : {}) };
}

function gradleFacts(text: string, folder: FolderView): MarkerFacts {
  // A root build whose settings include sub-projects and that has no sources of its own only gathers them.
  const settings = folder.read('settings.gradle') ?? folder.read('settings.gradle.kts');
  if (settings && /^\s*include[\s(]/m.test(settings) && !folder.has('src')) return { state: 'workspace' };
  const plugin = (id: string) =>
    new RegExp(`(?:id\\s*\\(?|apply\\s+plugin:)\\s*["']${id}["']|^\\s*${id}\\s*$`, 'm').test(text);
  const kind = plugin('application')
    ? 'application'
    : plugin('java-gradle-plugin')
      ? 'plugin'
      : plugin('java-library')
        ? 'library'
        : undefined;
  return { state: 'package', ...(kind ? { kind } : {}) };
}

function csprojFacts(text: string, file: string): MarkerFacts {
  const doc = xml().parse(text) as Record<string, unknown>;
  const groups = isRecord(doc.Project) ? [doc.Project.PropertyGroup].flat() : [];
  const output = groups.map((g) => (isRecord(g) ? str(g.OutputType) : undefined)).find(Boolean);
  const exe = output !== undefined && /exe$/i.test(output);
  return { state: 'package', name: file.replace(/\.csproj$/, ''), kind: exe ? 'application' : 'library' };
}

function chartFacts(text: string): MarkerFacts {
  const name = /^name:\s*["']?([^\s"'#]+)/m.exec(text)?.[1];
  return { state: 'package', ...(name ? { name } : {}), kind: 'infrastructure' };
}

/** Reads what one marker says; a file that cannot be read or parsed says `unknown`. */
export function markerFacts(marker: string, folder: FolderView): MarkerFacts {
  const text = folder.read(marker);
  if (text === undefined) return { state: 'unknown' };
  try {
    if (marker === 'package.json') return npmFacts(text, folder);
    if (marker === 'go.mod') return goFacts(text, folder);
    if (marker === 'Cargo.toml') return cargoFacts(text, folder);
    if (marker === 'pyproject.toml') return pythonFacts(text, folder);
    if (marker === 'pom.xml') return mavenFacts(text);
    if (marker === 'build.gradle') return gradleFacts(text, folder);
    if (marker === 'Chart.yaml') return chartFacts(text);
    if (marker.endsWith('.csproj')) return csprojFacts(text, marker);
  } catch {
    // JSON, TOML and XML errors alike: the marker is there, what it says is not known.
  }
  return { state: 'unknown' };
}

/** What a folder's markers say together: the first named package, the first kind, and the strongest state. */
export function folderFacts(markers: readonly string[], folder: FolderView): MarkerFacts {
  const all = markers.map((m) => markerFacts(m, folder));
  const rank: Record<MarkerState, number> = { package: 3, unknown: 2, workspace: 1, none: 0 };
  const state = all.reduce<MarkerState>((best, f) => (rank[f.state] > rank[best] ? f.state : best), 'none');
  const named = all.find((f) => f.state === 'package' && f.name);
  const kind = all.find((f) => f.kind)?.kind;
  return { state, ...(named?.name ? { name: named.name } : {}), ...(kind ? { kind } : {}) };
}
