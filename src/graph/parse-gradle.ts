import { parseTomlBounded as parseToml } from './bounded-text.js';
import { emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';
import { TomlLines } from './toml-lines.js';

const COORD = `([A-Za-z0-9_][\\w.-]*):([A-Za-z0-9_][\\w.-]*)`;
/** A configuration call with a string coordinate: `implementation 'g:a:v'`, `api("g:a:v")`, `platform("g:a")`. */
const STRING_DEP = new RegExp(
  `\\b([A-Za-z][A-Za-z0-9]*)\\s*\\(?\\s*(?:platform\\s*\\(\\s*|enforcedPlatform\\s*\\(\\s*)?["']${COORD}(?::[^"']*)?["']`,
  'g',
);
/** Map notation: `implementation group: 'g', name: 'a'`. */
const MAP_DEP = /\bgroup\s*[:=]\s*["']([\w.-]+)["']\s*,\s*name\s*[:=]\s*["']([\w.-]+)["']/g;
const GROUP = /^\s*group\s*=?\s*["']([\w.-]+)["']/m;
const ROOT_NAME = /rootProject\.name\s*=\s*["']([\w.-]+)["']/;

/** Words that take a coordinate string but declare no dependency. */
const NOT_DEPENDENCIES = new Set(['id', 'version', 'group', 'name', 'url', 'uri', 'println', 'mavenCentral']);

/**
 * build.gradle(.kts): string and map dependency notations in any configuration are what the repository depends
 * on. It publishes `group:<project name>` when the build sets `group`; the name is `rootProject.name` from the
 * settings file beside it, else the folder's name (Gradle's own default).
 */
export function parseGradleBuild(
  source: string,
  file: string,
  ctx: { dirName: string; readSibling: (name: string) => string | undefined },
): FileDeclarations {
  const out = emptyDeclarations();
  const lines = new LineIndex(source);
  for (const m of source.matchAll(STRING_DEP)) {
    if (NOT_DEPENDENCIES.has(m[1]!)) continue;
    out.requires.push({
      ecosystem: 'maven',
      name: `${m[2]}:${m[3]}`,
      file,
      line: lines.lineOf(m.index),
      scope: m[1],
    });
  }
  for (const m of source.matchAll(MAP_DEP))
    out.requires.push({ ecosystem: 'maven', name: `${m[1]}:${m[2]}`, file, line: lines.lineOf(m.index) });
  const group = GROUP.exec(source);
  if (group) {
    const settings = ctx.readSibling('settings.gradle.kts') ?? ctx.readSibling('settings.gradle');
    const name = (settings && ROOT_NAME.exec(settings)?.[1]) || ctx.dirName;
    out.provides.push({
      ecosystem: 'maven',
      name: `${group[1]}:${name}`,
      file,
      line: lines.lineOf(group.index + group[0].indexOf('group')),
    });
  }
  return out;
}

/** settings.gradle(.kts): `include 'a', ':b:c'` members are read too (`:b:c` is the folder b/c). */
export function parseGradleSettings(source: string): FileDeclarations {
  const out = emptyDeclarations();
  const more: string[] = [];
  for (const m of source.matchAll(/\binclude\s*\(?([^\n)]*)/g))
    for (const s of m[1]!.matchAll(/["']:?([\w.:-]+)["']/g)) more.push(s[1]!.replace(/:/g, '/'));
  if (more.length > 0) out.more = more;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** gradle/libs.versions.toml: `[libraries]` entries (`"g:a:v"`, `{ module = "g:a" }`, `{ group, name }`). */
export function parseVersionCatalog(source: string, file: string): FileDeclarations {
  const data = parseToml(source) as Record<string, unknown>;
  const out = emptyDeclarations();
  const keys = new TomlLines(source);
  if (!isRecord(data.libraries)) return out;
  for (const [alias, lib] of Object.entries(data.libraries)) {
    let coord: string | undefined;
    if (typeof lib === 'string') coord = lib.split(':').slice(0, 2).join(':');
    else if (isRecord(lib) && typeof lib.module === 'string') coord = lib.module;
    else if (isRecord(lib) && typeof lib.group === 'string' && typeof lib.name === 'string')
      coord = `${lib.group}:${lib.name}`;
    if (coord && /^[\w.-]+:[\w.-]+$/.test(coord))
      out.requires.push({
        ecosystem: 'maven',
        name: coord,
        file,
        line: keys.line(['libraries', alias]),
        scope: 'libraries',
      });
  }
  return out;
}
