## Claim before you edit

Claims are advisory and per repository. hub refuses a claim that overlaps another live agent's, naming the holder
and a path both match.

- Check first: `hub claim check --repository <project/repo> --component <name> --agent-id {{agent_id}}` or
  `--pattern '<glob>'` (`hub_claim_check`).
- Declare what you will change, for your task: `hub claim declare --repository <project/repo> --agent-id
  {{agent_id}} --task-id <task> --component <name>` or `--pattern 'src/auth/**'` (`hub_claim_declare`). Claim the
  folder or component you change, not the whole repository.
- Refused? Do not reach for `--allow-overlap`. Claim other paths, wait until the claim is released or expires (the
  refusal says when), or hand the work to its holder.
- Who owns a path by concept: `hub semantic owners --repository <project/repo> --path <path>`
  (`hub_semantic_owners`).
- Release when done: `hub claim release --agent-id {{agent_id}} --repository <project/repo>` (`hub_claim_release`).
