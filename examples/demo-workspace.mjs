// Builds the demo workspace: real Git repositories plus a commented `.hub.yml` that catalogs them.
// Plain Node ESM with builtins only, so it runs without a build: `node examples/create-demo.mjs <dir>`.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';

/** Author of every demo commit; also written to each repo's local config so later commits work. */
const AUTHOR = { name: 'Hub Demo', email: 'demo@example.com' };

/** @param {unknown} value */
const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** @param {string} name @param {string} description */
const pyproject = (name, description) =>
  `[project]
name = "${name}"
version = "0.1.0"
description = "${description}"
requires-python = ">=3.11"
dependencies = ["fastapi>=0.110"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"
`;

/** @param {string} name @param {string} description */
const chart = (name, description) =>
  `apiVersion: v2
name: ${name}
description: ${description}
type: application
version: 0.1.0
appVersion: "1.0.0"
`;

const githubWorkflow = (/** @type {string} */ name, /** @type {string} */ run) =>
  `name: ${name}
on:
  push:
    branches: [main]
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: ${run}
`;

/**
 * @typedef {{ message: string, files: Record<string, string> }} DemoCommit
 * @typedef {{ project: string, name: string, commits: DemoCommit[] }} DemoRepo
 */

/** Each repo is built commit by commit, so `git log` shows a short, meaningful history. @type {DemoRepo[]} */
const REPOS = [
  {
    project: 'platform',
    name: 'identity',
    commits: [
      {
        message: 'Add identity API service',
        files: {
          'README.md': '# identity\n\nLogin, sessions and tokens for every product.\n',
          '.github/workflows/ci.yml': githubWorkflow('ci', 'cd services/api && go test ./...'),
          'services/api/go.mod': 'module github.com/example/identity/services/api\n\ngo 1.22\n',
          'services/api/main.go':
            'package main\n\nimport (\n\t"log"\n\t"net/http"\n)\n\nfunc main() {\n\thttp.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })\n\tlog.Fatal(http.ListenAndServe(":8080", nil))\n}\n',
        },
      },
      {
        message: 'Add OAuth auth plugin nested under the API',
        files: {
          'services/api/plugins/auth/go.mod':
            'module github.com/example/identity/services/api/plugins/auth\n\ngo 1.22\n',
          'services/api/plugins/auth/oauth.go':
            'package auth\n\n// Provider names an OAuth identity provider.\ntype Provider string\n\nconst GitHub Provider = "github"\n',
        },
      },
      {
        message: 'Add TypeScript SDK and Helm chart',
        files: {
          'packages/sdk/package.json': json({
            name: '@example/identity-sdk',
            version: '0.3.0',
            type: 'module',
            main: 'dist/index.js',
            scripts: { build: 'tsc -p .', test: 'vitest run' },
          }),
          'packages/sdk/src/index.ts':
            "export async function whoami(baseUrl: string): Promise<unknown> {\n  const res = await fetch(new URL('/v1/me', baseUrl));\n  return res.json();\n}\n",
          'helm/identity/Chart.yaml': chart('identity', 'Identity API deployment'),
          'helm/identity/values.yaml':
            'replicaCount: 2\nimage:\n  repository: ghcr.io/example/identity-api\n',
        },
      },
    ],
  },
  {
    project: 'platform',
    name: 'gateway',
    commits: [
      {
        message: 'Add edge gateway service in Rust',
        files: {
          'README.md': '# gateway\n\nThe edge gateway: routing, TLS and rate limits.\n',
          'services/gateway/Cargo.toml':
            '[package]\nname = "gateway"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntokio = { version = "1", features = ["full"] }\n',
          'services/gateway/src/main.rs': 'fn main() {\n    println!("gateway listening on :8443");\n}\n',
        },
      },
      {
        message: 'Add rate limiter crate (not catalogued yet)',
        files: {
          'services/rate-limiter/Cargo.toml':
            '[package]\nname = "rate-limiter"\nversion = "0.1.0"\nedition = "2021"\n',
          'services/rate-limiter/src/lib.rs': 'pub fn allow(tokens: u32) -> bool {\n    tokens > 0\n}\n',
        },
      },
      {
        message: 'Add Helm chart for the gateway',
        files: {
          'helm/gateway/Chart.yaml': chart('gateway', 'Edge gateway deployment'),
          'helm/gateway/values.yaml': 'replicaCount: 3\n',
        },
      },
    ],
  },
  {
    project: 'platform',
    name: 'cloud-infra',
    commits: [
      {
        message: 'Add network Terraform module',
        files: {
          'README.md': '# cloud-infra\n\nTerraform modules and base charts for the platform.\n',
          '.gitlab-ci.yml':
            'stages: [plan]\nplan:\n  stage: plan\n  script:\n    - terraform -chdir=infra/network plan\n',
          'infra/network/main.tf':
            'terraform {\n  required_version = ">= 1.6"\n}\n\nresource "aws_vpc" "main" {\n  cidr_block = "10.0.0.0/16"\n}\n',
        },
      },
      {
        message: 'Add Kubernetes cluster module',
        files: {
          'infra/cluster/main.tf':
            'module "network" {\n  source = "../network"\n}\n\nresource "aws_eks_cluster" "main" {\n  name     = "platform"\n  role_arn = var.cluster_role_arn\n\n  vpc_config {\n    subnet_ids = module.network.private_subnet_ids\n  }\n}\n',
          'infra/cluster/variables.tf': 'variable "cluster_role_arn" {\n  type = string\n}\n',
        },
      },
      {
        message: 'Add platform-base Helm chart',
        files: {
          'helm/platform-base/Chart.yaml': chart('platform-base', 'Cluster add-ons shared by every service'),
        },
      },
    ],
  },
  {
    project: 'storefront',
    name: 'web',
    commits: [
      {
        message: 'Scaffold storefront web app',
        files: {
          'README.md': '# web\n\nThe customer-facing storefront and its shared UI kit.\n',
          '.github/workflows/web.yml': githubWorkflow('web', 'npm ci && npm test'),
          'apps/storefront/package.json': json({
            name: '@example/storefront',
            version: '1.4.0',
            private: true,
            type: 'module',
            scripts: { dev: 'vite', build: 'vite build', test: 'vitest run' },
            // Signs customers in through identity's SDK: `hub graph` infers storefront/web -> platform/identity.
            dependencies: { '@example/ui': 'workspace:*', '@example/identity-sdk': '^0.3.0' },
          }),
          'apps/storefront/src/main.ts':
            "import { Button } from '@example/ui';\n\nconsole.log(Button('Buy'));\n",
          'apps/storefront/src/checkout/index.ts':
            "// Checkout still posts invoices to the legacy billing service.\nexport const BILLING_URL = 'https://billing.example.com/v1/invoices';\n",
        },
      },
      {
        message: 'Add shared UI package',
        files: {
          'packages/ui/package.json': json({
            name: '@example/ui',
            version: '0.9.0',
            type: 'module',
            main: 'src/index.ts',
          }),
          'packages/ui/src/index.ts':
            "export const Button = (label: string): string => '<button>' + label + '</button>';\n",
        },
      },
      {
        message: 'Add analytics package (not catalogued yet)',
        files: {
          'packages/analytics/package.json': json({
            name: '@example/analytics',
            version: '0.1.0',
            type: 'module',
          }),
          'packages/analytics/src/index.ts':
            'export function track(event: string): void {\n  void event;\n}\n',
        },
      },
    ],
  },
  {
    project: 'storefront',
    name: 'catalog',
    commits: [
      {
        message: 'Add product catalog API',
        files: {
          'README.md': '# catalog\n\nProduct catalog API and its indexing worker.\n',
          'services/catalog/pyproject.toml': pyproject('catalog-api', 'Product catalog HTTP API'),
          'services/catalog/catalog/__init__.py': '"""Product catalog API."""\n',
        },
      },
      {
        message: 'Add search indexing worker',
        files: {
          'services/catalog-worker/pyproject.toml': pyproject('catalog-worker', 'Rebuilds the search index'),
          'services/catalog-worker/worker/__init__.py': '"""Search indexing worker."""\n',
        },
      },
    ],
  },
];

/** The url-only repo: declared in the manifest, never cloned. */
const UNCLONED = {
  project: 'platform',
  name: 'legacy-billing',
  url: 'https://github.com/example/legacy-billing.git',
};

const MANIFEST = `# Demo workspace for hub: two projects (platform, storefront), five cloned repos and one url-only repo.
# Generated by examples/create-demo.mjs; comments are kept on purpose (comment-preserving saves are tested on it).

workspace:
  name: demo
  description: Demo shop with a platform team and a storefront team.
  # Applies to every project, repo and component unless a scope sets inherit: false.
  agent_profile:
    skills: [code-review]
    mcp: [github]
    rules: [security/no-secrets]
    vendors: [claude_code, cursor, github_copilot, codex]
    tier: 1
  agent_instructions: Keep changes small and run each component's test command before handing off.

  projects:
    # --- platform: shared services and infrastructure -------------------------
    - name: platform
      description: Identity, edge gateway and cloud infrastructure.
      tags: { team: platform }
      agent_profile:
        skills: [terraform-review]
        rules: [platform/change-control]
        vendors: [claude_code, codex]
      repos:
        - name: identity
          path: ./platform/identity
          description: Login, sessions and tokens.
          default_branch: main
          ci:
            provider: github_actions
            workflow: .github/workflows/ci.yml
          tags: { team: identity, tier: critical }
          agent_instructions: Never log tokens or session ids.
          agent_profile:
            mcp: [postgres]
            rules: [security/auth-review]
          components:
            - name: api
              path: services/api
              kind: service
              language: go
              description: Identity HTTP API.
              commands:
                build: go build ./...
                test: go test ./...
              produces: [ghcr.io/example/identity-api]
              deploys_to: [staging, production]
              tags: { owner: identity-team }
            # Nested inside services/api on purpose: the resolver must pick the deepest component.
            - name: auth-plugin
              path: services/api/plugins/auth
              kind: plugin
              language: go
              depends_on: [api]
              agent_instructions: Changes here need a security review.
              agent_profile:
                skills: [threat-modeling]
            - name: sdk
              path: packages/sdk
              kind: package
              language: typescript
              depends_on: [api]
              commands:
                build: npm run build
                test: npm test
            - name: identity-chart
              path: helm/identity
              kind: infrastructure
              language: yaml
              depends_on: [api]

        - name: gateway
          path: ./platform/gateway
          description: Edge gateway (routing, TLS, rate limits).
          ci: github_actions
          tags: [edge, rust]
          # services/rate-limiter has a Cargo.toml but is not catalogued: \`hub component detect\` finds it.
          components:
            - name: gateway
              path: services/gateway
              kind: service
              language: rust
              commands:
                build: cargo build --release
                test: cargo test
            - name: gateway-chart
              path: helm/gateway
              kind: infrastructure
              depends_on: [gateway]

        - name: cloud-infra
          path: ./platform/cloud-infra
          description: Terraform modules and base Helm charts.
          ci:
            provider: gitlab_ci
            pipeline: .gitlab-ci.yml
          tags: { team: sre }
          agent_instructions: Run terraform plan only; never apply from an agent session.
          components:
            - name: network
              path: infra/network
              kind: infrastructure
              language: hcl
              commands:
                plan: terraform plan
            - name: cluster
              path: infra/cluster
              kind: infrastructure
              language: hcl
              depends_on: [network]
            - name: platform-base
              path: helm/platform-base
              kind: infrastructure
              depends_on: [cluster]

        # Declared by URL only and not cloned; it checks out to platform/legacy-billing.
        - name: legacy-billing
          url: ${UNCLONED.url}
          description: Old invoicing service, being replaced.
          tags: [legacy]

    # --- storefront: customer-facing apps -------------------------------------
    - name: storefront
      description: The shop customers see.
      agent_profile:
        skills: [frontend-testing]
        mcp: [figma]
        vendors: [cursor, github_copilot, windsurf]
      repos:
        - name: web
          path: ./storefront/web
          description: Storefront app and UI kit.
          ci:
            provider: github_actions
            workflow: .github/workflows/web.yml
          tags: { team: storefront, surface: customer-facing }
          # packages/analytics has a package.json but is not catalogued: \`hub component detect\` finds it.
          components:
            - name: storefront
              path: apps/storefront
              kind: application
              language: [typescript, css]
              depends_on: [ui]
              commands:
                dev: npm run dev
                build: npm run build
                test: npm test
              tags: [customer-facing]
            - name: ui
              path: packages/ui
              kind: package
              language: typescript
              skills: [frontend-testing]

        - name: catalog
          path: ./storefront/catalog
          description: Product catalog API and indexing worker.
          tags: [python, search]
          agent_instructions: Use uv for Python environments.
          components:
            - name: catalog-api
              path: services/catalog
              kind: service
              language: python
              commands:
                test: pytest
            - name: catalog-worker
              path: services/catalog-worker
              kind: worker
              language: python
              depends_on: [catalog-api]

# Declared edges between repos; component dependencies inside a repo come from depends_on.
graph:
  relationships:
    - id: web-calls-gateway
      from: { project: storefront, repo: web, component: storefront }
      to: { project: platform, repo: gateway, component: gateway }
      type: calls
      label: HTTPS API
    - id: gateway-calls-identity
      from: { project: platform, repo: gateway, component: gateway }
      to: { project: platform, repo: identity, component: api }
      type: calls
    - id: cluster-deploys-gateway
      from: { project: platform, repo: cloud-infra, component: cluster }
      to: { project: platform, repo: gateway }
      type: deploys
    # Path-only endpoint: resolved to the component that owns apps/storefront/src/checkout.
    - id: checkout-calls-billing
      from: { project: storefront, repo: web, path: apps/storefront/src/checkout }
      to: { project: platform, repo: legacy-billing }
      type: calls
      status: deprecated
      description: Checkout still posts invoices to legacy billing.
`;

const README = `# hub demo workspace

Created by \`node examples/create-demo.mjs\` (\`npm start\` makes it in .demo/). With \`hub\` on your PATH
(\`npm link\` in the hub checkout), try, in this directory:

    hub component list
    hub component detect
    hub config validate
    hub import repo-manifest default.xml     # default.xml: a small Google repo manifest
`;

/**
 * @param {string[]} args
 * @param {string} cwd
 */
function git(args, cwd) {
  return execFileSync(
    'git',
    [
      '-c',
      `user.name=${AUTHOR.name}`,
      '-c',
      `user.email=${AUTHOR.email}`,
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
  );
}

/** @param {string} root @param {Record<string, string>} files */
function writeFiles(root, files) {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(root, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * @typedef {{ project: string, name: string, path?: string, url?: string, cloned: boolean, commits: number }} DemoRepoInfo
 * @typedef {{ manifestPath: string, root: string, repos: DemoRepoInfo[] }} DemoResult
 */

/**
 * Creates the demo workspace in `target` (which must not exist or be empty unless `force`, which removes it first).
 * @param {string} target
 * @param {{ force?: boolean, log?: (line: string) => void }} [options]
 * @returns {DemoResult}
 */
export function createDemo(target, options = {}) {
  const log = options.log ?? (() => {});
  const requested = resolve(target);
  if (existsSync(requested) && readdirSync(requested).length > 0) {
    if (!options.force) {
      throw new Error(`refusing to overwrite non-empty directory ${requested} (pass --force to replace it)`);
    }
    const rel = relative(requested, process.cwd());
    const holdsCwd = !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
    if (requested === parse(requested).root || requested === homedir() || holdsCwd) {
      throw new Error(`refusing to remove ${requested} with --force: pick a dedicated demo directory`);
    }
    rmSync(requested, { recursive: true, force: true });
  }
  mkdirSync(requested, { recursive: true });
  const root = realpathSync(requested);

  /** @type {DemoRepoInfo[]} */
  const repos = [];
  for (const repo of REPOS) {
    const dir = join(root, repo.project, repo.name);
    mkdirSync(dir, { recursive: true });
    git(['init', '-q', '-b', 'main'], dir);
    git(['config', 'user.name', AUTHOR.name], dir);
    git(['config', 'user.email', AUTHOR.email], dir);
    for (const commit of repo.commits) {
      writeFiles(dir, commit.files);
      git(['add', '-A'], dir);
      git(['commit', '-q', '-m', commit.message], dir);
    }
    const path = `${repo.project}/${repo.name}`;
    repos.push({ project: repo.project, name: repo.name, path, cloned: true, commits: repo.commits.length });
    log(`created repo ${path} (${repo.commits.length} commits)`);
  }
  repos.push({
    project: UNCLONED.project,
    name: UNCLONED.name,
    url: UNCLONED.url,
    cloned: false,
    commits: 0,
  });
  log(`declared ${UNCLONED.project}/${UNCLONED.name} by url only (not cloned)`);

  writeFileSync(join(root, 'README.md'), README);
  // A Google repo manifest for the README tour's `hub import repo-manifest default.xml`.
  copyFileSync(new URL('./repo-manifest.xml', import.meta.url), join(root, 'default.xml'));
  const manifestPath = join(root, '.hub.yml');
  writeFileSync(manifestPath, MANIFEST);
  log(`wrote ${manifestPath}`);
  return { manifestPath, root, repos };
}
