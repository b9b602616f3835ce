## Finish

Leave nothing held and nothing unrecorded:

1. Close your run with its outcome: `hub run close --id <run> --outcome landed|bounced|noop|abandoned|failed
   --gate test=pass --note "<one line>"` (`hub_run_close`).
2. Release what you hold: `hub claim release --agent-id {{agent_id}}`; `hub lease release --repository
   <project/repo> --agent-id {{agent_id}} --task-id <task>` (add `--release-branch` once the branch has landed);
   `hub worktree destroy --agent-id {{agent_id}} --task-id <task>`, which keeps a worktree with uncommitted,
   untracked or unpushed work: commit, push or hand it off first.
3. Record the state: `hub context objective set --id <objective> --status done`, or `hub context pause` and a
   handoff when work remains.
4. `hub aos doctor` (`hub_aos_doctor`) should report nothing held by `{{agent_id}}`.
