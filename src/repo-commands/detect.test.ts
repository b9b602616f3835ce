import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, writeFiles } from '../../test/fixtures/index.js';
import { detectCommands } from './detect.js';
import { kindOf, kindOfLine } from './types.js';

let tmp: string;
beforeAll(() => {
  tmp = createTempDir('hub-commands-');
});
afterAll(() => removeTempDir(tmp));

let n = 0;
/** A fresh checkout folder holding `files`. */
function repo(files: Record<string, string>): string {
  const dir = join(tmp, `r${n++}`);
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, files);
  return dir;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

describe('declared commands', () => {
  it('npm package: build, test and lint scripts with the package manager and the line', () => {
    const root = repo({
      'package.json': json({
        name: 'web',
        scripts: {
          dev: 'vite',
          build: 'tsc -p . && vite build',
          pretest: 'npm run build',
          test: 'vitest run',
          'test:e2e': 'playwright test',
          lint: 'eslint .',
          verify: 'npm run lint && npm test',
          release: 'changeset publish',
        },
      }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
    });
    expect(detectCommands({ root })).toEqual([
      { kind: 'build', command: 'pnpm run build', source: 'package.json:5' },
      { kind: 'test', command: 'pnpm test', source: 'package.json:7' },
      { kind: 'test', command: 'pnpm run test:e2e', source: 'package.json:8' },
      { kind: 'lint', command: 'pnpm run lint', source: 'package.json:9' },
      { kind: 'lint', command: 'pnpm run verify', source: 'package.json:10' },
    ]);
  });

  it('Makefile: targets that build, test or lint, not specials, patterns or assignments', () => {
    const root = repo({
      Makefile: [
        'GO ?= go',
        'OUT := bin',
        '.PHONY: all build test lint clean',
        '',
        'all: build',
        '',
        'build:',
        '\t$(GO) build -o $(OUT)/app ./cmd/app',
        '',
        'test: build',
        '\t$(GO) test ./...',
        '',
        'lint fmt-check:',
        '\tgolangci-lint run',
        '',
        '%.o: %.c',
        '\tcc -c $<',
        'clean:',
        '\trm -rf $(OUT)',
        '',
      ].join('\n'),
    });
    expect(detectCommands({ root })).toEqual([
      { kind: 'build', command: 'make build', source: 'Makefile:7' },
      { kind: 'test', command: 'make test', source: 'Makefile:10' },
      { kind: 'lint', command: 'make lint', source: 'Makefile:13' },
      { kind: 'lint', command: 'make fmt-check', source: 'Makefile:13' },
    ]);
  });

  it('Go module: go build, go test ./... and go vet by convention, golangci-lint when configured', () => {
    const plain = repo({ 'go.mod': 'module example.com/tool\n\ngo 1.22\n' });
    expect(detectCommands({ root: plain })).toEqual([
      { kind: 'build', command: 'go build ./...', source: 'go.mod' },
      { kind: 'test', command: 'go test ./...', source: 'go.mod' },
      { kind: 'lint', command: 'go vet ./...', source: 'go.mod' },
    ]);
    const linted = repo({ 'go.mod': 'module example.com/tool\n', '.golangci.yml': 'run:\n  timeout: 5m\n' });
    expect(detectCommands({ root: linted }).map((c) => c.command)).toContain('golangci-lint run');
  });

  it('Cargo crate: cargo build, cargo test and cargo clippy', () => {
    const root = repo({ 'Cargo.toml': '[package]\nname = "limiter"\nversion = "0.1.0"\n' });
    expect(detectCommands({ root })).toEqual([
      { kind: 'build', command: 'cargo build', source: 'Cargo.toml' },
      { kind: 'test', command: 'cargo test', source: 'Cargo.toml' },
      { kind: 'lint', command: 'cargo clippy', source: 'Cargo.toml' },
    ]);
  });

  it('Python: hatch environments, PDM scripts, poe tasks, pytest and ruff configuration', () => {
    const root = repo({
      'pyproject.toml': [
        '[project]',
        'name = "catalog-api"',
        '',
        '[tool.hatch.envs.default.scripts]',
        'test = "pytest {args:tests}"',
        'serve = "uvicorn app:main"',
        '',
        '[tool.hatch.envs.lint.scripts]',
        'style = ["ruff check .", "black --check ."]',
        '',
        '[tool.pdm.scripts]',
        '_ = { env_file = ".env" }',
        'typecheck = "mypy src"',
        '',
        '[tool.poe.tasks]',
        'build-docs = { cmd = "mkdocs build" }',
        '',
        '[tool.pytest.ini_options]',
        'addopts = "-q"',
        '',
        '[tool.ruff]',
        'line-length = 100',
        '',
      ].join('\n'),
    });
    expect(detectCommands({ root })).toEqual([
      { kind: 'test', command: 'hatch run test', source: 'pyproject.toml:5' },
      { kind: 'lint', command: 'hatch run lint:style', source: 'pyproject.toml:9' },
      { kind: 'lint', command: 'pdm run typecheck', source: 'pyproject.toml:13' },
      { kind: 'build', command: 'poe build-docs', source: 'pyproject.toml:16' },
      { kind: 'test', command: 'pytest', source: 'pyproject.toml:18' },
      { kind: 'lint', command: 'ruff check', source: 'pyproject.toml:21' },
    ]);
  });

  it('Python: tox.ini environments and noxfile.py sessions', () => {
    const root = repo({
      'tox.ini': [
        '[tox]',
        'envlist = py311, py312, lint',
        '',
        '[testenv]',
        'commands = pytest',
        '',
        '[testenv:lint]',
        'commands = ruff check .',
        '',
        '[testenv:docs]',
        'commands = sphinx-build docs out',
        '',
      ].join('\n'),
      'noxfile.py': [
        'import nox',
        '',
        '@nox.session(python=["3.11", "3.12"])',
        'def tests(session):',
        '    session.run("pytest")',
        '',
        '@nox.session(name="type-check")',
        'def mypy(session):',
        '    session.run("mypy", "src")',
        '',
        '@nox.session',
        'def docs(session):',
        '    session.run("sphinx-build", "docs", "out")',
        '',
      ].join('\n'),
    });
    expect(detectCommands({ root })).toEqual([
      { kind: 'test', command: 'tox', source: 'tox.ini:1' },
      { kind: 'lint', command: 'tox -e lint', source: 'tox.ini:7' },
      { kind: 'test', command: 'nox -s tests', source: 'noxfile.py:3' },
      { kind: 'lint', command: 'nox -s type-check', source: 'noxfile.py:7' },
    ]);
  });

  it('GitHub Actions: run lines with their file line, working-directory and `cd x &&` as dir', () => {
    const root = repo({
      '.github/workflows/ci.yml': [
        'name: ci',
        'on: [push]',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - run: npm ci',
        '      - run: |',
        '          npm run build',
        '          # a comment',
        '          npm test -- \\',
        '            --coverage',
        '      - run: npm run lint',
        '        working-directory: web',
        '      - run: cd services/api && go test ./...',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
        '      - run: npm run ${{ matrix.task }}',
        '      - run: cd ../elsewhere && make test',
        '      - run: pip install -e ".[test]"',
        '',
      ].join('\n'),
    });
    expect(detectCommands({ root })).toEqual([
      { kind: 'build', command: 'npm run build', source: '.github/workflows/ci.yml:10' },
      { kind: 'test', command: 'npm test -- --coverage', source: '.github/workflows/ci.yml:12' },
      { kind: 'lint', command: 'npm run lint', dir: 'web', source: '.github/workflows/ci.yml:14' },
      { kind: 'test', command: 'go test ./...', dir: 'services/api', source: '.github/workflows/ci.yml:16' },
    ]);
  });

  it('manifest commands come first, named, with source manifest; a repeated line is listed once', () => {
    const root = repo({
      'package.json': json({ scripts: { test: 'node --test' } }),
      'services/api/go.mod': 'module example.com/api\n',
    });
    const commands = detectCommands({
      root,
      dirs: ['services/api', '../outside'],
      manifest: [
        {
          path: 'services/api',
          commands: { test: 'go test ./...', migrate: 'go run ./cmd/migrate' },
        },
        { path: '.', commands: { check: 'npm test' } },
      ],
    });
    expect(commands).toEqual([
      {
        kind: 'test',
        command: 'go test ./...',
        dir: 'services/api',
        source: 'manifest',
      },
      {
        name: 'migrate',
        command: 'go run ./cmd/migrate',
        dir: 'services/api',
        source: 'manifest',
      },
      { kind: 'lint', name: 'check', command: 'npm test', source: 'manifest' },
      { kind: 'build', command: 'go build ./...', dir: 'services/api', source: 'services/api/go.mod' },
      { kind: 'lint', command: 'go vet ./...', dir: 'services/api', source: 'services/api/go.mod' },
    ]);
  });

  it('reads nothing outside the checkout and survives broken files', () => {
    const outside = repo({ 'package.json': json({ scripts: { test: 'steal' } }) });
    const root = repo({
      'Cargo.toml': '[package\nname =',
      'pyproject.toml': '[tool.hatch\n',
      'noxfile.py': '',
    });
    symlinkSync(join(outside, 'package.json'), join(root, 'package.json'));
    mkdirSync(join(root, '.github/workflows'), { recursive: true });
    writeFileSync(join(root, '.github/workflows/bad.yml'), 'jobs: [unclosed\n');
    symlinkSync(outside, join(root, 'linked'));
    const commands = detectCommands({ root, dirs: ['linked'] });
    expect(commands.map((c) => c.command)).toEqual(['cargo build', 'cargo test', 'cargo clippy']);
    expect(detectCommands({ manifest: [] })).toEqual([]);
  });

  it('stays linear on hostile files and drops names with line breaks', () => {
    const root = repo({
      Makefile: `a${' '.repeat(150_000)}\n${'x'.repeat(50_000)}\ntest:\n\tgo test ./...\n`,
      'package.json': json({ scripts: { 'test\nrm -rf ~': 'x', lint: 'eslint .' } }),
    });
    expect(detectCommands({ root }).map((c) => c.command)).toEqual(['npm run lint', 'make test']);
  });
});

describe('what a name or a line is for', () => {
  it('reads names and CI lines, skipping set-up', () => {
    expect(kindOf('test:unit')).toBe('test');
    expect(kindOf('golangci-lint')).toBe('lint');
    expect(kindOf('tsc --noEmit')).toBe('lint');
    expect(kindOf('dev')).toBeUndefined();
    expect(kindOfLine('npm ci && npm test')).toBe('test');
    expect(kindOfLine('python -m pip install -e .[test]')).toBeUndefined();
    expect(kindOfLine('echo "run the tests"')).toBeUndefined();
    expect(kindOfLine('CI=1 pytest -q')).toBe('test');
  });
});
