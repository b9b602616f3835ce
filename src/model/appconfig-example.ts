/** A commented hub.config.yaml showing every section; every value shown is valid (most are the defaults). */
export const APPCONFIG_EXAMPLE = `# hub.config.yaml: application settings for hub (the workspace itself is described by .hub.yml).
# Looked up in the manifest root (hub.config.yaml, then hub.config.yml), then in the user config
# directory (config.yml, then config.yaml). Unknown keys are rejected.

state:
  # local (files under .hub/), http (another hub server), dynamodb, mongodb or memory.
  backend: local                    # env HUB_STATE_BACKEND
  # url: https://hub.example.com    # http backend only; http or https (env HUB_STATE_URL)
  # token: put it in HUB_STATE_TOKEN rather than here; tokens are never committed.
  conflict_retries: 1               # reload-and-reapply attempts after a compare-and-swap conflict
  # org_id: _                       # env HUB_STATE_ORG_ID
  # workspace_id: derived from the workspace root (env HUB_STATE_WORKSPACE_ID)
  timeout_ms: 10000
  # events:                         # the recorded events feed, an append-only log (user config only)
  #   retain_count: 10000           # the newest this many are always kept
  #   retain_days: 30               # older ones go too, never below the newest 5,000 (0: no age bound)
  # dynamodb:
  #   table: hub-state
  #   region: eu-west-1
  # mongodb:
  #   url: mongodb://localhost:27017
  #   database: hub
  #   collection: state

coordination:
  branch_pattern: 'agent/{task_id}[-{slug}]'
  allowed_branch_prefixes: ['agent/']
  worktree_per_task: false
  # worktree:
  #   post_create:
  #     symlink: [node_modules]          # gitignored paths linked from the main checkout
  #     copy: [.env.local]               # gitignored paths copied from the main checkout
  #     command: [npm, install]          # argv, run without a shell
  #   ports: {count: 2, range: [4100, 4199]}   # each worktree leases its own; HUB_PORT_1..2 in its .env.hub
  #   env:                                     # also written to .env.hub (git-ignored via info/exclude)
  #     DATABASE_URL: 'postgres://localhost/app_{task_id}'
  #     PUBLIC_URL: 'http://localhost:{port_1}'

merge:
  # Commands run (no shell) in the temporary merge worktree before a merge counts as succeeded.
  validators: []
  # validators:
  #   - [npm, test]
  #   - 'npm run lint -- --max-warnings 0'  # a string is split into words, never given to a shell
  # Rebuild conflicted generated files when every conflicted path matches the patterns.
  regenerate: []
  # regenerate:
  #   - patterns: ['package-lock.json']
  #     command: [npm, install, --package-lock-only]
  timeout_ms: 600000                  # default timeout of one validator or regenerate command

workspace:
  dedupe:
    enabled: false
  ui_ignore_hidden: true
  worktrees_path: .worktrees/       # env HUB_WORKSPACE_WORKTREES_PATH; its basename is a reserved project name
  campaigns_path: _campaigns/       # env HUB_WORKSPACE_CAMPAIGNS_PATH; its basename is a reserved project name
  # manifest_max_bytes: 8388608     # largest .hub.yml read (env HUB_MANIFEST_MAX_BYTES); raise only, user config only

config:
  editor: code                      # command used by the open action

# providers:
#   jira:
#     organization: acme
#     project: PLAT

api_version: ''                     # env HUB_API_VERSION

server:
  # token: put it in HUB_SERVER_TOKEN; required to bind beyond loopback
  allowed_hosts: []                 # Host header values accepted besides loopback names

# agents:
#   default_profile: repo-implementer
`;
