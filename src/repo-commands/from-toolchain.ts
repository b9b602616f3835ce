import { command, type Detector } from './folder.js';
import { under } from './text.js';
import type { DeclaredCommand } from './types.js';

/**
 * What a toolchain's marker file implies by convention, with the marker as the source: a Go module builds with
 * `go build ./...`, tests with `go test ./...` and is vetted with `go vet ./...` (golangci-lint when it is
 * configured); a Cargo package builds, tests and lints with `cargo build|test|clippy`.
 */
export const toolchainCommands: Detector = (folder) => {
  const out: DeclaredCommand[] = [];
  if (folder.files.has('go.mod')) {
    const source = under(folder.dir, 'go.mod');
    out.push(
      command(folder, { kind: 'build', command: 'go build ./...', source }),
      command(folder, { kind: 'test', command: 'go test ./...', source }),
    );
    const golangci = ['.golangci.yml', '.golangci.yaml', '.golangci.toml', '.golangci.json'].find(
      (f) => folder.files.has(f) || folder.rootFiles.has(f),
    );
    out.push(
      golangci
        ? command(folder, {
            kind: 'lint',
            command: 'golangci-lint run',
            source: folder.files.has(golangci) ? under(folder.dir, golangci) : golangci,
          })
        : command(folder, { kind: 'lint', command: 'go vet ./...', source }),
    );
  }
  if (folder.files.has('Cargo.toml')) {
    const source = under(folder.dir, 'Cargo.toml');
    out.push(
      command(folder, { kind: 'build', command: 'cargo build', source }),
      command(folder, { kind: 'test', command: 'cargo test', source }),
      command(folder, { kind: 'lint', command: 'cargo clippy', source }),
    );
  }
  return out;
};
