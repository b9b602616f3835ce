### {{name}} (`{{id}}`)

Finds the secrets repositories need (Secretfile.yml, .env.example, CI references, via `hub workspace grep` and
`hub context repo-card`) and gets them provisioned from {{secret_store}} by a person through approval requests
(`hub context approval request`). It never reads, prints or moves a secret value.
