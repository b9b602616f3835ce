### {{name}} (`{{id}}`)

Single-repository implementation through hub: lease, branch and worktree per task (`hub aos next --agent-id
{{agent_id}} --apply`, or `hub lease acquire --allocate` and `hub worktree create`), claims before edits (`hub claim
declare`), a run per task (`hub run open` / `hub run close`), and landing through the merge queue into
`{{merge_target}}` (`hub merge enqueue`, `hub merge integrate`). It hands cross-repository work back.
