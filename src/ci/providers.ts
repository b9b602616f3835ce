/** CI systems hub recognizes, by the id a manifest's `ci.provider` uses. */
export const CI_PROVIDERS = [
  'github_actions',
  'gitlab_ci',
  'circleci',
  'azure_pipelines',
  'jenkins',
  'buildkite',
  'travis',
  'bitbucket_pipelines',
  'appveyor',
  'drone',
] as const;

export type CiProvider = (typeof CI_PROVIDERS)[number];

export const CI_LABELS: Readonly<Record<CiProvider, string>> = {
  github_actions: 'GitHub Actions',
  gitlab_ci: 'GitLab CI/CD',
  circleci: 'CircleCI',
  azure_pipelines: 'Azure Pipelines',
  jenkins: 'Jenkins',
  buildkite: 'Buildkite',
  travis: 'Travis CI',
  bitbucket_pipelines: 'Bitbucket Pipelines',
  appveyor: 'AppVeyor',
  drone: 'Drone CI',
};

/**
 * Where each system reads its configuration, as each documents it: a root file name, or a folder (relative to the
 * repository root) whose YAML files are each a pipeline. Order within a provider is the order its runner looks.
 */
export const CI_LOCATIONS: Readonly<
  Record<CiProvider, { files?: readonly string[]; dirs?: readonly string[] }>
> = {
  // docs.github.com "Workflow syntax": every .yml/.yaml file in .github/workflows is a workflow.
  github_actions: { dirs: ['.github/workflows'] },
  // docs.gitlab.com: the default CI/CD configuration file is .gitlab-ci.yml at the root.
  gitlab_ci: { files: ['.gitlab-ci.yml', '.gitlab-ci.yaml'] },
  // circleci.com/docs/config-intro: .circleci/config.yml.
  circleci: { files: ['.circleci/config.yml', '.circleci/config.yaml'] },
  // learn.microsoft.com YAML pipelines: azure-pipelines.yml by default; teams keep more in a folder.
  azure_pipelines: {
    files: ['azure-pipelines.yml', 'azure-pipelines.yaml', '.azure-pipelines.yml', '.azure-pipelines.yaml'],
    dirs: ['.azure-pipelines', '.azuredevops'],
  },
  // jenkins.io "Using a Jenkinsfile": Jenkinsfile at the root (multibranch pipelines' default script path).
  jenkins: { files: ['Jenkinsfile'] },
  // buildkite.com/docs/agent/v3/cli-pipeline: the agent uploads the first of these it finds.
  buildkite: {
    files: [
      'buildkite.yml',
      'buildkite.yaml',
      'buildkite.json',
      '.buildkite/pipeline.yml',
      '.buildkite/pipeline.yaml',
      '.buildkite/pipeline.json',
      'buildkite/pipeline.yml',
      'buildkite/pipeline.yaml',
      'buildkite/pipeline.json',
    ],
  },
  travis: { files: ['.travis.yml'] },
  bitbucket_pipelines: { files: ['bitbucket-pipelines.yml'] },
  appveyor: { files: ['appveyor.yml', '.appveyor.yml'] },
  drone: { files: ['.drone.yml'] },
};

/** The root entries that can hold a CI configuration (the first path segment of every location). */
export const CI_ROOT_NAMES: ReadonlySet<string> = new Set(
  Object.values(CI_LOCATIONS).flatMap((l) =>
    [...(l.files ?? []), ...(l.dirs ?? [])].map((p) => p.split('/')[0]!),
  ),
);

export function isCiProvider(value: string): value is CiProvider {
  return (CI_PROVIDERS as readonly string[]).includes(value);
}
