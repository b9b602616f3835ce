## Start every session

Your agent id is `{{agent_id}}`. hub treats one id as one agent, and an agent never conflicts with itself: when
several copies of this agent run at once, give each its own id (`{{agent_id}}-2`, ...).

1. `hub session begin` (MCP `hub_session_begin`): what changed since the last session, the active objective, open
   handoffs and pending approvals. Read it before anything else.
2. `hub context resume` (`hub_context_resume`) names the objective to pick up; `hub context handoff list --status
   open` (`hub_handoff_list`) lists work someone handed over.
3. `hub context pack --tier 0 --json` (`hub_context_pack`) is the workspace map in a few hundred tokens; `--tier 1`
   adds a card per repository (branch, dirty state, stack, CI, instructions). Add `--project P --repo R` to narrow
   it, `--max-tokens N` to cap it.
4. Stay live while you hold anything: `hub agent heartbeat --agent-id {{agent_id}}` (`hub_agent_heartbeat`) renews
   you and every lease and claim you hold. Without it they lapse after their TTL (30 minutes by default) and
   another agent may take your paths.
