import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { realpathOrUndefined, tryReadFileBounded, writeFileUnder } from '../infra/index.js';
import {
  identityOf,
  NAMESPACE_RE,
  type NamespaceKind,
  type OrgProvider,
  type ProviderRepo,
  REPO_NAME_RE,
} from './provider-repo.js';

/** Where org indexes live, under the workspace's state tree. */
export const ORG_DIR = join('.hub', 'org');
/** Largest index file read back (an org of ~50,000 repositories). */
export const ORG_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** The index file schema, built on first use (zod schemas are costly to build; most commands never read an index). */
function buildOrgIndexSchema() {
  const Nullable = z.string().nullable();
  const IndexedRepoSchema = z
    .object({
      provider: z.enum(['github', 'gitlab']),
      id: z.string(),
      namespace: z.string().regex(NAMESPACE_RE),
      name: z.string().regex(REPO_NAME_RE),
      full_name: z.string(),
      identity: z.string(),
      description: Nullable,
      language: Nullable,
      topics: z.array(z.string()),
      archived: z.boolean(),
      fork: z.boolean(),
      visibility: Nullable,
      default_branch: Nullable,
      clone_url: Nullable,
      ssh_url: Nullable,
      web_url: Nullable,
      pushed_at: Nullable,
      updated_at: Nullable,
      stars: z.number().nullable(),
      has: z.array(z.string()),
      first_indexed_at: z.string(),
    })
    // The identity is what the graph and materialize go by: it must be the one its parts make.
    .refine((r) => r.identity === identityOf(r.provider, r.namespace, r.name));

  const OrgIndexFileSchema = z.object({
    schema: z.literal(1),
    provider: z.enum(['github', 'gitlab']),
    namespace: z.string(),
    kind: z.enum(['org', 'user', 'group']),
    indexed_at: z.string(),
    /** The API root asked (never a token). */
    api: z.string(),
    pages: z.number(),
    truncated: z.boolean(),
    repos: z.array(IndexedRepoSchema),
  });

  return { IndexedRepoSchema, OrgIndexFileSchema };
}

let built: ReturnType<typeof buildOrgIndexSchema> | undefined;
const orgIndexSchema = () => {
  built ??= buildOrgIndexSchema();
  return built;
};

type Schemas = ReturnType<typeof buildOrgIndexSchema>;
export type IndexedRepo = z.infer<Schemas['IndexedRepoSchema']>;
export type OrgIndexFile = z.infer<Schemas['OrgIndexFileSchema']>;

/** One file per namespace: `/` of a GitLab subgroup becomes `~` (never a folder of its own). */
export function orgFileRel(provider: OrgProvider, namespace: string): string {
  return join(ORG_DIR, provider, `${namespace.replace(/\//g, '~')}.json`);
}

export interface StoreInput {
  provider: OrgProvider;
  namespace: string;
  kind: NamespaceKind;
  api: string;
  pages: number;
  truncated: boolean;
  repos: ProviderRepo[];
  now: Date;
}

/**
 * Stores what a host reported for a namespace, replacing the previous observation of it; a repository seen
 * before keeps the time it was first indexed. Returns the file and how many repositories are new.
 */
export function storeOrgIndex(
  root: string,
  input: StoreInput,
): { file: OrgIndexFile; path: string; added: number } {
  const rel = orgFileRel(input.provider, input.namespace);
  const before = readOrgFile(root, rel);
  const first = new Map(before?.repos.map((r) => [r.identity, r.first_indexed_at]) ?? []);
  const at = input.now.toISOString();
  const file: OrgIndexFile = {
    schema: 1,
    provider: input.provider,
    namespace: input.namespace,
    kind: input.kind,
    indexed_at: at,
    api: input.api,
    pages: input.pages,
    truncated: input.truncated,
    repos: input.repos.map((r) => ({ ...r, first_indexed_at: first.get(r.identity) ?? at })),
  };
  const path = writeFileUnder(root, rel, `${JSON.stringify(file)}\n`);
  return { file, path, added: input.repos.filter((r) => !first.has(r.identity)).length };
}

function readOrgFile(root: string, rel: string): OrgIndexFile | undefined {
  const realRoot = realpathOrUndefined(root);
  if (!realRoot) return undefined;
  const r = tryReadFileBounded(join(realRoot, rel), { maxBytes: ORG_FILE_MAX_BYTES, root: realRoot });
  if (!r.ok) return undefined;
  try {
    const parsed = orgIndexSchema().OrgIndexFileSchema.safeParse(JSON.parse(r.bytes.toString('utf8')));
    // A damaged or foreign file reads as absent (a workspace clone can ship .hub/): the next `org index` rewrites it.
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Every stored org index of the workspace (unreadable files are skipped). */
export function readOrgIndexes(root: string): OrgIndexFile[] {
  const out: OrgIndexFile[] = [];
  for (const provider of ['github', 'gitlab'] as const) {
    let names: string[];
    try {
      names = readdirSync(join(root, ORG_DIR, provider));
    } catch {
      continue;
    }
    for (const n of names.sort()) {
      if (!n.endsWith('.json')) continue;
      const f = readOrgFile(root, join(ORG_DIR, provider, n));
      if (f) out.push(f);
    }
  }
  return out;
}
