### {{name}} (`{{id}}`)

Enriches one repository's `.hub.yml` entry from its checkout: components (`hub component detect --apply`),
commands, CI, description, tags and short `agent_instructions`, read from `hub context repo-card`, under a claim on
`.hub.yml` and checked with `hub config validate`.
