## Ground rules

- hub is the record of who works where. Read it (`hub aos status`, `hub claim list`, `hub lease list`) instead of
  guessing, and write to it (claims, leases, runs, handoffs) instead of leaving notes in chat.
- Never edit paths another live agent claims, never work in another agent's worktree, and never `--force` the
  release of another agent's lease or claim. A dead agent's holdings are freed by `hub aos recover --agent-id <id>`.
- Add `--json` when you parse output. An error then comes back as an `error` object with `code`, `message` and
  `details`, naming the field, the value and the rule it broke: fix that input rather than retrying.
- Keep secrets out of files, commits and notes; hub masks the ones it sees in runs and events.
