import * as z from 'zod';
import { agentProfileSchema } from './agent-profile-schema.js';
import { sourceSchemas } from './source-schema.js';

/** Names of projects, repos and components: no slashes, since identities join them with `/`. */
export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const RECOMMENDED_KINDS = [
  'application',
  'service',
  'library',
  'package',
  'infrastructure',
  'worker',
  'cli',
  'plugin',
  'documentation',
  'data',
  'tool',
  'unknown',
] as const;

export const RELATIONSHIP_STATUSES = ['active', 'deprecated', 'proposed'] as const;
export const RELATIONSHIP_PROVENANCES = ['manual', 'promoted', 'imported'] as const;

/** A name field of `what` (a project, repo, component...). */
const Name = (what: string) =>
  z
    .string()
    .regex(
      NAME_RE,
      `${what} names start with a letter or digit and use only letters, digits, '.', '_' and '-'`,
    );

/** Builds the schemas; zod takes milliseconds per schema at construction, so this runs on first use only. */
function buildManifestSchemas() {
  const AgentProfileSchema = agentProfileSchema();
  const { RepoSourceSchema, SourceSchema } = sourceSchemas();

  const StringList = z.array(z.string());

  /** Tags are a map; a plain list is accepted and read as `{tag: true}`. */
  const TagsSchema = z.union([
    z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    StringList,
  ]);

  const ComponentSchema = z.strictObject({
    name: Name('component').describe('Unique within its repo.'),
    path: z.string().min(1).describe('Repository-relative directory; must not escape the repository root.'),
    kind: z
      .string()
      .optional()
      .describe(`Open string; recommended: ${RECOMMENDED_KINDS.join(', ')}.`),
    description: z.string().optional(),
    depends_on: z.array(z.string()).optional().describe('Names of components in the same repo.'),
    language: z.union([z.string(), StringList]).optional().describe('Main language, or a list of languages.'),
    commands: z
      .record(z.string(), z.string())
      .optional()
      .describe('Named commands run from the component directory, e.g. {build: "npm run build"}.'),
    produces: StringList.optional().describe(
      'Artifacts the component produces (images, packages, binaries).',
    ),
    deploys_to: StringList.optional().describe('Environments or targets it deploys to.'),
    skills: StringList.optional().describe('Skill ids useful when working on it.'),
    tags: TagsSchema.optional(),
    agent_instructions: z.string().optional(),
    agent_profile: AgentProfileSchema.optional(),
  });

  const CiSchema = z.union([
    z.string(),
    z.strictObject({
      provider: z.string().optional().describe('github_actions, gitlab_ci, jenkins, ...'),
      workflow: z.string().optional(),
      pipeline: z.string().optional(),
      url: z.string().optional(),
    }),
  ]);

  /** Where a repo of a derived working set comes from; required on every repo of an enabled derived project. */
  const DerivedFromSchema = z.strictObject({
    project: Name('project').describe('The source project.'),
    repo: Name('repo').describe('The source repo in that project.'),
    refreshed_at: z.string().optional().describe('When the repo was last copied from its source (ISO 8601).'),
  });

  const RepoSchema = z.strictObject({
    name: Name('repo'),
    path: z.string().min(1).optional().describe('Checkout directory, relative to the manifest.'),
    url: z.string().min(1).optional().describe('Clone URL; a url-only repo checks out to <project>/<name>.'),
    description: z.string().optional(),
    default_branch: z.string().optional(),
    components: z.array(ComponentSchema).optional(),
    ci: CiSchema.optional(),
    agent_profile: AgentProfileSchema.optional(),
    agent_instructions: z.string().optional(),
    tags: TagsSchema.optional(),
    derived_from: DerivedFromSchema.optional().describe('Set on the repos of a derived working set.'),
    source: RepoSourceSchema.optional().describe(
      'Provenance written by project source sync and repo materialize.',
    ),
  });

  /** One source project of a derived working set: its repos taken, and per repo the components taken. */
  const DerivedSourceSchema = z.strictObject({
    project: Name('project'),
    repos: z.array(z.string()).optional().describe('Repos of the source project in the set.'),
    components: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .describe('Per source repo, the components taken (an allow-list); a repo without one has all of them.'),
  });

  const DerivedSchema = z.strictObject({
    enabled: z.boolean().default(true),
    sources: z.array(DerivedSourceSchema).optional(),
  });

  const ProjectSchema = z.strictObject({
    name: Name('project'),
    description: z.string().optional(),
    repos: z.array(RepoSchema).default([]),
    sources: z.array(SourceSchema).optional(),
    dedupe: z.strictObject({ enabled: z.boolean() }).optional(),
    derived: DerivedSchema.optional().describe(
      'A derived working set: repos (or single components) taken from other projects; changed only by project derived create|include|refresh|exclude.',
    ),
    agent_profile: AgentProfileSchema.optional(),
    agent_instructions: z.string().optional(),
    tags: TagsSchema.optional(),
  });

  const EndpointSchema = z.strictObject({
    project: z.string().optional(),
    repo: z.string().optional(),
    component: z.string().optional(),
    path: z.string().optional().describe('Repo-relative path, resolved to a component through the resolver.'),
  });

  const RelationshipSchema = z.strictObject({
    id: z.string(),
    from: EndpointSchema,
    to: EndpointSchema,
    type: z.string().min(1),
    status: z.enum(RELATIONSHIP_STATUSES).default('active'),
    provenance: z.enum(RELATIONSHIP_PROVENANCES).default('manual'),
    label: z.string().optional(),
    description: z.string().optional(),
  });

  const GraphNodeSchema = z.strictObject({
    project: z.string(),
    repo: z.string(),
    url: z.string().optional(),
    provider: z.string().optional(),
    label: z.string().optional(),
    description: z.string().optional(),
  });

  const GraphSchema = z.strictObject({
    relationships: z.array(RelationshipSchema).optional(),
    nodes: z.array(GraphNodeSchema).optional(),
  });

  const WorkspaceSchema = z.strictObject({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    projects: z.array(ProjectSchema).optional(),
    agent_profile: AgentProfileSchema.optional(),
    agent_instructions: z.string().optional(),
  });

  /** An application-manifest `components[]` entry: a local path (catalogued) or only a `ref` (a dependency). */
  const AppComponentSchema = z.union([
    ComponentSchema,
    z.strictObject({
      name: Name('component'),
      ref: z.string().min(1).describe('Cross-project reference; not a catalog member.'),
      kind: z.string().optional(),
      description: z.string().optional(),
    }),
  ]);

  /** `paths[]` of an application manifest: component-like entries whose name defaults to the path basename. */
  const AppPathSchema = ComponentSchema.extend({ name: Name('path').optional() });

  const ManifestSchema = z
    .strictObject({
      $schema: z.string().optional(),
      version: z.union([z.string(), z.number()]).optional().describe('Ignored; kept for older manifests.'),
      kind: z.enum(['workspace', 'application']).optional(),
      name: Name('application').optional().describe('Application name (application manifests).'),
      description: z.string().optional(),
      paths: z.array(AppPathSchema).optional(),
      components: z.array(AppComponentSchema).optional(),
      agent_profile: AgentProfileSchema.optional(),
      agent_instructions: z.string().optional(),
      workspace: WorkspaceSchema.optional(),
      graph: GraphSchema.optional(),
    })
    .describe('hub manifest (.hub.yml): Workspace -> Project -> Repository -> Component.');

  return {
    TagsSchema,
    ComponentSchema,
    CiSchema,
    DerivedFromSchema,
    RepoSchema,
    DerivedSourceSchema,
    DerivedSchema,
    ProjectSchema,
    EndpointSchema,
    RelationshipSchema,
    GraphNodeSchema,
    GraphSchema,
    WorkspaceSchema,
    AppComponentSchema,
    AppPathSchema,
    ManifestSchema,
  };
}

let built: ReturnType<typeof buildManifestSchemas> | undefined;

/** The manifest schemas, built on first use (a command that reads a cached manifest never builds them). */
export function manifestSchemas(): ReturnType<typeof buildManifestSchemas> {
  built ??= buildManifestSchemas();
  return built;
}

/** Every manifest schema by name. */
export type ManifestSchemas = ReturnType<typeof buildManifestSchemas>;
type Schemas = ManifestSchemas;
export type Manifest = z.infer<Schemas['ManifestSchema']>;
export type ManifestInput = z.input<Schemas['ManifestSchema']>;
export type Component = z.infer<Schemas['ComponentSchema']>;
export type Repo = z.infer<Schemas['RepoSchema']>;
export type Project = z.infer<Schemas['ProjectSchema']>;
export type Relationship = z.infer<Schemas['RelationshipSchema']>;
export type Endpoint = z.infer<Schemas['EndpointSchema']>;
export type GraphNode = z.infer<Schemas['GraphNodeSchema']>;
export type Tags = z.infer<Schemas['TagsSchema']>;
export type Derived = z.infer<Schemas['DerivedSchema']>;
export type DerivedSource = z.infer<Schemas['DerivedSourceSchema']>;
export type DerivedFrom = z.infer<Schemas['DerivedFromSchema']>;
