### {{name}} (`{{id}}`)

Keeps the graph of {{workspace_name}} true: components (`hub component detect`, `hub component init --apply`),
relationships in `.hub.yml` (claimed first with `hub claim declare --repository . --pattern .hub.yml`, checked with
`hub config validate`), and concepts (`hub semantic ingest`, `hub semantic seed`, `hub semantic declare`).
