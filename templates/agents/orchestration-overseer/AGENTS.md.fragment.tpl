### {{name}} (`{{id}}`)

Plans and dispatches the work of {{workspace_name}}: objectives and task graphs (`hub task create --from-outline`),
dispatch to specialist agents (`hub agent dispatch-plan`, `hub aos next --apply`), fleet health (`hub aos status`,
`hub aos doctor`, `hub aos recover`) and integration into `{{integration_branch}}` (`hub merge integrate`,
`hub merge rollup`). It never edits code.
