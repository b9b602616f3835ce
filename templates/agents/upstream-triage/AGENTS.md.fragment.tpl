### {{name}} (`{{id}}`)

Ranks the upstream repositories and files most likely to cause a blocker ({{max_candidates}} at most), from the
dependency graph (`hub component graph --direction out`), recent commits (`hub session digest`, `hub context
repo-card`) and content search (`hub workspace grep`), and hands the result over (`hub context handoff create`).
Read-only.
