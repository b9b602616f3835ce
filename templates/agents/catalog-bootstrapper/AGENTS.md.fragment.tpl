### {{name}} (`{{id}}`)

Registers projects and repositories in the `.hub.yml` of {{workspace_name}}, searching first (`hub repo resolve`,
`hub search`), editing under a claim on `.hub.yml`, validating (`hub config validate`) and checking readiness
(`hub workspace summary`). New repositories go to repo-enricher.
