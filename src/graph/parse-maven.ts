import { XMLParser } from 'fast-xml-parser';
import { type Declared, emptyDeclarations, type FileDeclarations, LineIndex } from './declarations.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v.trim() || undefined : typeof v === 'number' ? String(v) : undefined;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

let parser: XMLParser | undefined;
// Entities are not expanded (no DTD, no entity bombs); text stays text (`1.0` is not a number).
const xml = () =>
  (parser ??= new XMLParser({
    ignoreAttributes: true,
    processEntities: false,
    parseTagValue: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  }));

/**
 * pom.xml: `groupId:artifactId` of the project (the group inherited from `<parent>` when absent) is what the
 * repository publishes; the parent, `<dependencies>`, `<dependencyManagement>` and each profile's dependencies
 * are what it depends on. `${project.groupId}` and properties of the same file are substituted; a coordinate that
 * still holds `${` is skipped. `<modules>` are read too.
 */
export function parsePom(source: string, file: string): FileDeclarations {
  const doc = xml().parse(source) as Record<string, unknown>;
  const project = isRecord(doc.project) ? doc.project : undefined;
  const out = emptyDeclarations();
  if (!project) return out;
  const lines = new LineIndex(source);
  const parent = isRecord(project.parent) ? project.parent : {};
  const props: Record<string, string> = {};
  if (isRecord(project.properties))
    for (const [k, v] of Object.entries(project.properties)) {
      const t = text(v);
      if (t !== undefined) props[k] = t;
    }
  const groupId = text(project.groupId) ?? text(parent.groupId);
  const artifactId = text(project.artifactId);
  if (groupId) props['project.groupId'] = props['pom.groupId'] = groupId;
  if (artifactId) props['project.artifactId'] = artifactId;
  const sub = (v: string | undefined) =>
    v?.replace(/\$\{([^}]+)\}/g, (whole, key: string) => props[key] ?? whole);
  if (groupId && artifactId && !`${groupId}${artifactId}`.includes('${'))
    out.provides.push({
      ecosystem: 'maven',
      name: `${groupId}:${artifactId}`,
      file,
      line: lines.find(`<artifactId>${artifactId}</artifactId>`),
    });
  const add = (dep: unknown, scope: string, from: number) => {
    if (!isRecord(dep)) return;
    const g = sub(text(dep.groupId));
    const a = sub(text(dep.artifactId));
    if (!g || !a || `${g}${a}`.includes('${')) return;
    const d: Declared = { ecosystem: 'maven', name: `${g}:${a}`, file, scope };
    d.line = lines.find(`<artifactId>${text(dep.artifactId)}</artifactId>`, from);
    out.requires.push(d);
  };
  add(parent, 'parent', Math.max(0, source.indexOf('<parent>')));
  const deps = (owner: Record<string, unknown>, scope: string) => {
    const at = Math.max(0, source.indexOf('<dependencies>'));
    const holder = isRecord(owner.dependencies) ? owner.dependencies : {};
    for (const dep of list(holder.dependency)) add(dep, scope, at);
  };
  deps(project, 'dependencies');
  if (isRecord(project.dependencyManagement)) deps(project.dependencyManagement, 'dependencyManagement');
  const profiles = isRecord(project.profiles) ? list(project.profiles.profile) : [];
  for (const p of profiles) if (isRecord(p)) deps(p, `profile.${text(p.id) ?? '?'}`);
  const modules = isRecord(project.modules) ? list(project.modules.module).map(text) : [];
  const more = modules.filter((m): m is string => m !== undefined);
  if (more.length > 0) out.more = more;
  return out;
}
