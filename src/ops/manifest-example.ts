/** The example printed by `hub config example`; a test loads it, so it stays valid. */
export const MANIFEST_EXAMPLE = `# yaml-language-server: $schema=./node_modules/hub-workspace/schemas/hub.manifest.schema.json
# .hub.yml: one manifest for the whole workspace.
workspace:
  name: acme
  agent_profile:
    skills: [code-review]
    rules: [security/no-secrets]
  projects:
    - name: platform
      repos:
        - name: api
          path: ./platform/api          # a checkout, relative to this file
          tags: { team: core, tier: backend }
          agent_instructions: Run \`make test\` before pushing.
          components:
            - name: server
              path: services/server
              kind: service
              language: go
              commands: { build: make build, test: make test }
            - name: client
              path: packages/client
              kind: library
              depends_on: [server]
        - name: billing
          url: https://git.example.com/acme/billing.git   # declared, cloned later
graph:
  relationships:
    - id: client-calls-billing
      from: { project: platform, repo: api, component: client }
      to: { project: platform, repo: billing }
      type: calls
`;
