import * as z from 'zod';

export const SOURCE_PROVIDERS = ['local', 'github', 'gitlab'] as const;
export const SOURCE_ID_RE = /^[a-z0-9][a-z0-9-]*$/;

/** Builds the schemas; zod takes milliseconds per schema at construction, so this runs on first use only. */
function buildSourceSchemas() {
  const StringList = z.array(z.string());

  /** Where a repository entry came from when a source or an org index added it; its identity stays with it. */
  const RepoSourceSchema = z.strictObject({
    id: z.string().optional().describe('The project source (sources[].id) that discovered it.'),
    provider: z.string().min(1).describe('local, github, gitlab.'),
    namespace: z.string().min(1).describe('Organization, user or group; the folder of a local source.'),
    repo: z
      .string()
      .min(1)
      .describe('Repository name on the host (or folder name); identity <provider>://<namespace>/<repo>.'),
  });

  /**
   * A place repositories are discovered from: a local folder of checkouts, a GitHub organization or user, a
   * GitLab group (subgroups included). `project source sync` previews or applies what it finds into repos[].
   */
  const SourceSchema = z
    .strictObject({
      id: z
        .string()
        .regex(SOURCE_ID_RE, 'source ids use lowercase letters, digits and -')
        .optional()
        .describe('Unique within the project; default <provider>-<namespace> (slugged).'),
      provider: z.enum(SOURCE_PROVIDERS).describe('local (a folder), github or gitlab.'),
      path: z.string().min(1).optional().describe('local: folder of checkouts, relative to the manifest.'),
      org: z.string().min(1).optional().describe('github: organization.'),
      user: z.string().min(1).optional().describe('github: user (instead of org).'),
      group: z.string().min(1).optional().describe('gitlab: group path (a/b for a subgroup).'),
      include: StringList.optional().describe(
        'Globs on <namespace>/<repo> or <repo>; default every repository.',
      ),
      exclude: StringList.optional().describe('Globs on <namespace>/<repo> or <repo> left out.'),
      include_archived: z.boolean().optional().describe('Also archived repositories (default false).'),
      include_forks: z.boolean().optional().describe('Also forks (default false).'),
      depth: z.number().int().min(1).max(4).optional().describe('local: folder levels searched (default 1).'),
      mode: z
        .enum(['additive', 'reconcile'])
        .optional()
        .describe(
          'additive (default) only adds; reconcile also removes entries of this source no longer found.',
        ),
      enabled: z.boolean().optional().describe('false keeps the source but skips it.'),
    })
    .superRefine((s, ctx) => {
      const given = (['path', 'org', 'user', 'group'] as const).filter((k) => s[k] !== undefined);
      const want: string[] =
        s.provider === 'local' ? ['path'] : s.provider === 'github' ? ['org', 'user'] : ['group'];
      if (given.length !== 1 || !want.includes(given[0]!))
        ctx.addIssue({
          code: 'custom',
          message: `a ${s.provider} source names exactly one of ${want.join(', ')} (got ${given.join(', ') || 'none'})`,
          path: [given.find((k) => !want.includes(k)) ?? want[0]!],
        });
    });

  return { RepoSourceSchema, SourceSchema };
}

let built: ReturnType<typeof buildSourceSchemas> | undefined;

/** The project source schemas, built on first use. */
export function sourceSchemas(): ReturnType<typeof buildSourceSchemas> {
  built ??= buildSourceSchemas();
  return built;
}

type Schemas = ReturnType<typeof buildSourceSchemas>;
export type Source = z.infer<Schemas['SourceSchema']>;
export type RepoSource = z.infer<Schemas['RepoSourceSchema']>;
