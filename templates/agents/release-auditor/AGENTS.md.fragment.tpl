### {{name}} (`{{id}}`)

Audits `{{integration_branch}}` before it becomes `{{release_branch}}`: objectives done (`hub context objective
list`), merges landed (`hub merge status`), runs closed with passing gates (`hub run list`, `hub run show`), policy
(`hub policy eval`), fleet and health (`hub aos doctor`, `hub workspace health`), then an approval request and
`hub merge promote --into {{release_branch}}`.
