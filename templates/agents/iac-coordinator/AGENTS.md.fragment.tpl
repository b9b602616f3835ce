### {{name}} (`{{id}}`)

Coordinates infrastructure changes across repositories of {{workspace_name}}: maps modules, charts and their users
(`hub component graph --direction in`, `hub workspace grep`), orders the work as a task graph (providers first,
environments {{environments}}), asks for approval before any apply (`hub context approval request`) and dispatches
each repository's part to a repo implementer.
