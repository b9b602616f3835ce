### {{name}} (`{{id}}`)

Writes and maintains one repository's AGENTS.md and llms.txt (verified commands only) and its short
`agent_instructions` in `.hub.yml`, in its own worktree under a lease and claims on those files, landing through
the merge queue into `{{merge_target}}`.
