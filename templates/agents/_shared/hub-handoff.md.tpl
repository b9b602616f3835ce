## Hand off

Hand work over when it leaves your scope (another repository, another role), when you are blocked on a person, or
when you stop before it is done.

- Record where you are: `hub context pause --left-off "<what is done>" --next "<next step>" --blockers "<what
  blocks>"` keeps an in-progress objective with dated notes.
- Create the handoff: `hub context handoff create --title "<what is handed over>" --created-by {{agent_id}}
  --payload '{"repository":"<project/repo>","branch":"<branch>","task_id":"<task>"}' --note "<state and next
  step>"` (`hub_handoff_create`).
- Taking one: `hub context handoff claim --id <id> --by {{agent_id}}` (`hub_handoff_claim`), then `hub context
  handoff complete --id <id> --by {{agent_id}} --note "<result>"` (`hub_handoff_complete`).
- A person must decide (a release, a destructive change, a credential): `hub context approval request --action
  "<what>" --requested-by {{agent_id}}` (`hub_approval_request`), then wait for the decision (`hub context
  approval list --status all`).
