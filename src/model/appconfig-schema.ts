import { isAbsolute } from 'node:path';
import * as z from 'zod';

export const STATE_BACKENDS = ['local', 'http', 'dynamodb', 'mongodb', 'memory'] as const;

/** The exact text the spec requires when `state.url` has another scheme. */
export const STATE_URL_RULE = 'remote state url must be http(s)';

/** True for an absolute http:// or https:// URL; the remote state contract allows no other scheme. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL_CHAR_RE = /[\u0000-\u001f\u007f-\u009f]/;

/** Ports one worktree may lease at most. */
export const MAX_WORKTREE_PORTS = 64;

/** Names a .env file can carry; HUB_PORT_<n> is hub's own. */
const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** A placeholder of an env template: `{agent_id}`, `{task_id}`, `{port_<n>}`. */
export const ENV_PLACEHOLDER_RE = /\{([^{}]*)\}/g;

function checkEnvPlaceholders(
  w: { env?: Record<string, string> | undefined; ports?: { count: number } | undefined },
  ctx: z.RefinementCtx,
): void {
  const count = w.ports?.count ?? 0;
  for (const key of Object.keys(w.env ?? {}))
    if (!ENV_NAME_RE.test(key) || /^HUB_PORT_\d+$/.test(key))
      ctx.addIssue({
        code: 'custom',
        path: ['env', key],
        message: ENV_NAME_RE.test(key)
          ? `${key}: HUB_PORT_<n> is written by hub from the leased ports`
          : `'${key}' is not a variable name (letters, digits and _, not starting with a digit)`,
      });
  for (const [key, value] of Object.entries(w.env ?? {}))
    for (const m of value.matchAll(ENV_PLACEHOLDER_RE)) {
      const name = m[1]!;
      const port = /^port_(\d+)$/.exec(name);
      if (name === 'agent_id' || name === 'task_id') continue;
      if (port && Number(port[1]) >= 1 && Number(port[1]) <= count) continue;
      ctx.addIssue({
        code: 'custom',
        path: ['env', key],
        message: port
          ? `{${name}}: coordination.worktree.ports gives ${count} port(s) per worktree, so {port_1}..{port_${count}} exist`
          : `{${name}} is not a placeholder; use {agent_id}, {task_id} or {port_1}..{port_<count>}`,
      });
    }
}

/** Builds the schemas; zod takes milliseconds per schema at construction, so this runs on first use only. */
function buildAppConfigSchema() {
  const StringList = z.array(z.string());

  /**
   * A bearer token: empty (= not set), or a value a client can send in an Authorization header and compare: not
   * blank, no control characters (a newline would split the header), no whitespace around it (headers are trimmed).
   * Messages never include the value.
   */
  const TokenSchema = z.string().superRefine((v, ctx) => {
    if (v === '') return;
    const fail = (message: string, rule: string) =>
      ctx.addIssue({ code: 'custom', message, params: { rule } });
    if (v.trim() === '')
      fail('must not be blank (only whitespace): remove it or set a real token', 'not_blank');
    else if (CONTROL_CHAR_RE.test(v))
      fail('must not contain a control character (newline, tab, NUL...)', 'no_control_characters');
    else if (v !== v.trim()) fail('must not start or end with whitespace', 'trimmed');
  });

  const DynamoDbSchema = z.strictObject({
    table: z.string().min(1).optional().describe('Table holding one item per state document.'),
    region: z.string().min(1).optional().describe('AWS region; the SDK default chain applies when absent.'),
    endpoint: z
      .string()
      .min(1)
      .optional()
      .describe('Endpoint override (for example a local DynamoDB-compatible API).'),
  });

  const MongoDbSchema = z.strictObject({
    url: z.string().min(1).optional().describe('Connection string; credentials belong in the environment.'),
    database: z.string().min(1).optional().describe('Database name.'),
    collection: z.string().min(1).optional().describe('Collection holding one record per state document.'),
  });

  /** Retention of the events log (defaults keep at least the 5,000 events the single-document feed kept). */
  const EventsRetentionSchema = z.strictObject({
    retain_count: z
      .number()
      .int()
      .min(100)
      .default(10_000)
      .describe(
        'The newest this many recorded events are always kept; older ones are compacted away. Only the user config or --appconfig may set it, never a hub.config.yaml found in the workspace.',
      ),
    retain_days: z
      .number()
      .int()
      .min(0)
      .default(30)
      .describe(
        'Events older than this many days are compacted away too, but never below the newest 5,000 (0: no age bound). Only the user config or --appconfig may set it, never a hub.config.yaml found in the workspace.',
      ),
  });

  const StateConfigSchema = z.strictObject({
    backend: z
      .enum(STATE_BACKENDS)
      .default('local')
      .describe('Where coordination state lives (env HUB_STATE_BACKEND).'),
    url: z
      .string()
      .refine(isHttpUrl, STATE_URL_RULE)
      .optional()
      .describe('Base URL of the remote hub server for the http backend (env HUB_STATE_URL).'),
    token: TokenSchema.optional().describe('Bearer token for the http backend (env HUB_STATE_TOKEN).'),
    api_key: TokenSchema.optional().describe('Used as the bearer token when `token` is empty.'),
    conflict_retries: z
      .number()
      .int()
      .min(0)
      .default(1)
      .describe('How many times a compare-and-swap update reloads and reapplies after a conflict.'),
    org_id: z
      .string()
      .min(1)
      .optional()
      .describe('Organization id of shared state (env HUB_STATE_ORG_ID); default `_`.'),
    workspace_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Workspace id of shared state (env HUB_STATE_WORKSPACE_ID); default derived from the workspace root.',
      ),
    timeout_ms: z.number().int().positive().default(10_000).describe('Timeout of one remote state request.'),
    dynamodb: DynamoDbSchema.optional().describe('Settings of the dynamodb backend.'),
    mongodb: MongoDbSchema.optional().describe('Settings of the mongodb backend.'),
    events: EventsRetentionSchema.optional().describe(
      'Retention of the recorded events feed (the events log).',
    ),
  });

  const PostCreateSchema = z.strictObject({
    symlink: StringList.optional().describe(
      'Gitignored paths symlinked from the main checkout into a new worktree.',
    ),
    copy: StringList.optional().describe(
      'Gitignored paths copied from the main checkout into a new worktree.',
    ),
    command: z
      .array(z.string())
      .min(1)
      .optional()
      .describe('Command run in the new worktree, as an argv list (no shell).'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(3_600_000)
      .optional()
      .describe('Timeout of the command in milliseconds (default 600000).'),
  });

  /** Ports a worktree leases: `count` of them from `range` (both ends included). */
  const WorktreePortsSchema = z
    .strictObject({
      count: z.number().int().min(1).max(MAX_WORKTREE_PORTS).describe('Ports each worktree gets.'),
      range: z
        .tuple([z.number().int().min(1).max(65_535), z.number().int().min(1).max(65_535)])
        .describe('Lowest and highest port handed out, both included.'),
    })
    .superRefine((v, ctx) => {
      const [low, high] = v.range;
      if (low > high)
        ctx.addIssue({
          code: 'custom',
          path: ['range'],
          message: `range [${low}, ${high}]: the low end is above the high end`,
        });
      else if (high - low + 1 < v.count)
        ctx.addIssue({
          code: 'custom',
          path: ['range'],
          message: `range [${low}, ${high}] holds ${high - low + 1} port(s), fewer than count ${v.count}: not even one worktree would fit`,
        });
    });

  const WorktreeEnvSchema = z
    .record(
      z.string(),
      z
        .string()
        .max(4096)
        .refine((v) => !/[\r\n\0]/.test(v), 'one line (no line break or NUL)'),
    )
    .refine((r) => Object.keys(r).length <= 200, 'at most 200 variables');

  const CoordinationConfigSchema = z.strictObject({
    branch_pattern: z
      .string()
      .min(1)
      .default('agent/{task_id}[-{slug}]')
      .describe(
        'Pattern of allocated branch names; `[...]` parts are dropped when their placeholder is empty.',
      ),
    allowed_branch_prefixes: StringList.default(() => ['agent/']).describe(
      'Prefixes an allocated branch must have.',
    ),
    worktree_per_task: z
      .boolean()
      .default(false)
      .describe('Create a git worktree for every allocated task branch.'),
    worktree: z
      .strictObject({
        post_create: PostCreateSchema.optional().describe('Hooks run after a worktree is created.'),
        ports: WorktreePortsSchema.optional().describe(
          'Ports each new worktree leases from a range, none shared with another live worktree of the machine.',
        ),
        env: WorktreeEnvSchema.optional().describe(
          "Variables written to the worktree's .env.hub; values may use {agent_id}, {task_id}, {port_1}...",
        ),
      })
      .superRefine(checkEnvPlaceholders)
      .optional(),
  });

  /** A command hub runs without a shell: an argv list, or a string split into words as a shell would (no operators). */
  const MergeCommandSchema = z.union([z.array(z.string()).min(1), z.string().min(1)]);

  const commandTimeout = z
    .number()
    .int()
    .positive()
    .max(3_600_000)
    .optional()
    .describe('Timeout of the command in milliseconds (default merge.timeout_ms).');

  const RegenerateRuleSchema = z
    .strictObject({
      pattern: z.string().min(1).optional().describe('Glob of repository-relative paths (picomatch).'),
      patterns: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe('Globs; the rule applies when every conflicted path matches.'),
      command: MergeCommandSchema.describe(
        'Command (argv list, or a string split without a shell) that rebuilds the generated files.',
      ),
      timeout_ms: commandTimeout,
    })
    .refine((r) => r.pattern !== undefined || r.patterns !== undefined, {
      message: 'a regenerate rule needs pattern or patterns',
    });

  const ValidatorSchema = z.union([
    MergeCommandSchema,
    z.strictObject({
      name: z.string().min(1).optional().describe('Name shown in reports (default: the command).'),
      command: MergeCommandSchema.describe('Command (argv list, or a string split without a shell).'),
      timeout_ms: commandTimeout,
    }),
  ]);

  const MergeConfigSchema = z.strictObject({
    validators: z
      .array(ValidatorSchema)
      .default(() => [])
      .describe(
        'Commands run in the temporary merge worktree before a merge counts as succeeded (no shell; first failure stops).',
      ),
    regenerate: z
      .array(RegenerateRuleSchema)
      .default(() => [])
      .describe('Rebuilds conflicted generated files in the temporary merge worktree.'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(3_600_000)
      .default(600_000)
      .describe('Default timeout of one validator or regenerate command in milliseconds.'),
  });

  const WorkspaceConfigSchema = z.strictObject({
    dedupe: z
      .strictObject({
        enabled: z.boolean().default(false).describe('Deduplicate repositories listed twice.'),
      })
      .prefault({}),
    ui_ignore_hidden: z.boolean().default(true).describe('Hide dot-directories in the UI explorer.'),
    worktrees_path: z
      .string()
      .min(1)
      .default('.worktrees/')
      .describe(
        'Where task worktrees live (env HUB_WORKSPACE_WORKTREES_PATH); its basename is a reserved project name.',
      ),
    campaigns_path: z
      .string()
      .min(1)
      .default('_campaigns/')
      .describe(
        'Campaigns folder at the manifest root (env HUB_WORKSPACE_CAMPAIGNS_PATH); basename reserved.',
      ),
    manifest_max_bytes: z
      .number()
      .int()
      .min(8 * 1024 * 1024)
      .default(8 * 1024 * 1024)
      .describe(
        'Largest manifest (.hub.yml) hub reads, in bytes (env HUB_MANIFEST_MAX_BYTES); default 8 MiB, about 7,000 repositories of 10 components. It can only be raised: parse budgets (YAML nodes, tokens, depends_on entries) grow in proportion. Only the user config, --appconfig or the environment may set it, never a hub.config.yaml found in the workspace.',
      ),
    allowed_outside_paths: z
      .array(z.string().min(1).refine(isAbsolute, 'must be an absolute path'))
      .default(() => [])
      .describe(
        'Absolute folders outside the manifest folder where repositories may live (env HUB_ALLOWED_OUTSIDE_PATHS adds more). Only the user config, --appconfig or the environment may set it, never a hub.config.yaml found in the workspace.',
      ),
  });

  const ProviderSchema = z.strictObject({
    organization: z.string().optional().describe('Organization on the board provider.'),
    project: z.string().optional().describe('Project on the board provider.'),
  });

  const AppConfigSchema = z
    .strictObject({
      state: StateConfigSchema.prefault({}).describe('Coordination state storage.'),
      coordination: CoordinationConfigSchema.prefault({}).describe('Advisory coordination between agents.'),
      merge: MergeConfigSchema.prefault({}).describe('Merge queue settings.'),
      workspace: WorkspaceConfigSchema.prefault({}).describe('Workspace layout and UI settings.'),
      config: z
        .strictObject({
          editor: z.string().min(1).default('code').describe('Editor command used by the open action.'),
        })
        .prefault({}),
      providers: z
        .record(z.string(), ProviderSchema)
        .default(() => ({}))
        .describe('Board provider settings for campaign board linking, by provider name.'),
      api_version: z.string().default('').describe('API version pin (env HUB_API_VERSION).'),
      server: z
        .strictObject({
          token: TokenSchema.optional().describe(
            'Bearer token every request must carry; required for a non-loopback bind (env HUB_SERVER_TOKEN).',
          ),
          allowed_hosts: StringList.default(() => []).describe(
            'Host header values accepted besides loopback names.',
          ),
        })
        .prefault({})
        .describe('The bundled HTTP server.'),
      agents: z
        .strictObject({
          default_profile: z.string().min(1).optional().describe('Agent profile used when none is named.'),
        })
        .prefault({}),
    })
    .describe('hub.config.yaml: application settings (not the workspace manifest).');

  return AppConfigSchema;
}

let built: ReturnType<typeof buildAppConfigSchema> | undefined;

/** The schema of hub.config.yaml, built on first use (a command that never reads the config never builds it). */
export function appConfigSchema(): ReturnType<typeof buildAppConfigSchema> {
  built ??= buildAppConfigSchema();
  return built;
}

/** The application config with every default applied. */
export type AppConfig = z.output<ReturnType<typeof buildAppConfigSchema>>;
/** What a file may say: every key optional. */
export type AppConfigInput = z.input<ReturnType<typeof buildAppConfigSchema>>;
