import { createRequire } from 'node:module';
import type * as Jsonc from 'jsonc-parser';
import { yaml } from '../model/index.js';
import { emptyDeclarations, type FileDeclarations } from './declarations.js';

let jsoncLib: typeof Jsonc | undefined;
// Through Node's require, as src/agents/install/jsonc-lib.ts explains: its UMD main requires `./impl/...` at run
// time, which a bundle cannot follow.
const jsonc = () => (jsoncLib ??= createRequire(import.meta.url)('jsonc-parser') as typeof Jsonc);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : [];

const withMembers = (more: string[]): FileDeclarations =>
  more.length > 0 ? { ...emptyDeclarations(), more } : emptyDeclarations();

/**
 * pnpm-workspace.yaml: `packages` globs name the members (`!` ones carve folders out). The file declares no
 * package of its own; the root package.json beside it does, when it has a name.
 */
export function parsePnpmWorkspace(source: string): FileDeclarations {
  // A workspace file has no aliases: a billion-laughs document stops here.
  const data: unknown = yaml().parse(source, { maxAliasCount: 50, uniqueKeys: false });
  return withMembers(isRecord(data) ? strings(data.packages) : []);
}

/** lerna.json: `packages` globs, Lerna's own default (`packages/*`) when it names none. */
export function parseLerna(source: string): FileDeclarations {
  const data: unknown = JSON.parse(source);
  if (!isRecord(data)) return emptyDeclarations();
  return withMembers(data.packages === undefined ? ['packages/*'] : strings(data.packages));
}

/** rush.json (JSON with comments): each `projects[].projectFolder` is a member. */
export function parseRush(source: string): FileDeclarations {
  const data: unknown = jsonc().parse(source, [], { allowTrailingComma: true });
  const projects = isRecord(data) && Array.isArray(data.projects) ? data.projects : [];
  return withMembers(projects.flatMap((p) => (isRecord(p) ? strings([p.projectFolder]) : [])));
}
