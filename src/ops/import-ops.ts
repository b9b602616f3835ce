import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import * as z from 'zod';
import { backupFileSync, RefusedError, resolveInside, writeFileAtomicSync } from '../infra/index.js';
import { MANIFEST_FILENAME, readUtf8File, yaml } from '../model/index.js';
import { type IncludeReader, importRepoManifestXml, safeName } from '../workspace/index.js';
import { defineOp, WRITES } from './registry.js';

interface ImportResult {
  source: string;
  /** Where the manifest was written; null when only printed. */
  output: string | null;
  written: boolean;
  counts: ReturnType<typeof importRepoManifestXml>['counts'];
  warnings: string[];
  /** The YAML text, when it was not written to a file. */
  text?: string;
  /** Where the file that --force replaced was copied; null when nothing was replaced. */
  backup?: string | null;
}

export const importRepoManifest = defineOp({
  id: 'import.repo-manifest',
  summary:
    'Convert a Google repo manifest (XML) into a .hub.yml: one project per top-level directory, one repo per <project>.',
  description:
    'Repo names are the repo path with / replaced by -; url is the remote fetch URL plus the project name; groups become tags; ' +
    'the revision becomes default_branch. <include>s are read from beside the file; missing ones are reported as warnings.',
  input: z.strictObject({
    file: z.string().min(1).describe('The repo manifest XML (for example .repo/manifests/default.xml).'),
    output: z
      .string()
      .optional()
      .describe('Where to write .hub.yml (default: print only); a directory gets .hub.yml inside it.'),
    force: z
      .boolean()
      .optional()
      .describe('Replace an existing output file, keeping a copy as <file>.bak-<UTC time> beside it.'),
  }),
  gate: 'none',
  attributes: WRITES,
  handler: async (ctx, input): Promise<ImportResult> => {
    const source = resolve(ctx.cwd, input.file);
    const readInclude: IncludeReader = (name, fromFile) => {
      // repo reads includes from the manifest directory; never let one reach outside it.
      const path = resolveInside(dirname(fromFile), name);
      if (!path || !existsSync(path)) return undefined;
      return { file: path, text: readUtf8File(path, 'repo manifest include') };
    };
    const workspaceName = safeName(basename(source).replace(/\.xml$/i, ''));
    const imported = importRepoManifestXml(readUtf8File(source, 'repo manifest'), {
      file: source,
      name: workspaceName,
      readInclude,
    });
    for (const w of imported.warnings) ctx.log(`warning: ${w}`);
    const { Document } = yaml();
    const doc = new Document(imported.manifest);
    doc.commentBefore = ` Imported by \`hub import repo-manifest\` from ${basename(source)}; re-run to refresh.`;
    const text = doc.toString({ lineWidth: 0 });
    const base = { source, counts: imported.counts, warnings: imported.warnings };
    if (input.output === undefined) return { ...base, output: null, written: false, text };

    let output = resolve(ctx.cwd, input.output);
    if (isDirectory(output)) output = join(output, MANIFEST_FILENAME);
    if (existsSync(output) && !input.force) {
      throw new RefusedError(
        `${output} already exists; pass --force to replace it (a copy is kept beside it as .bak-<UTC time>)`,
        { field: 'output', value: output, rule: 'exists' },
        409,
      );
    }
    if (!isDirectory(dirname(output))) {
      throw new RefusedError(`the directory of ${output} does not exist`, {
        field: 'output',
        value: output,
        rule: 'parent_exists',
      });
    }
    const backup = existsSync(output) ? backupFileSync(output, ctx.now()) : null;
    writeFileAtomicSync(output, text);
    return { ...base, output, written: true, backup };
  },
  cli: {
    command: 'import repo-manifest',
    args: ['file'],
    human: (r) => {
      const c = r.counts;
      const summary = `${c.projects} projects, ${c.repos} repos, ${c.groups} groups as tags${c.removed ? `, ${c.removed} removed` : ''}`;
      if (!r.written) return `${r.text}# ${summary}`;
      const kept = r.backup ? `\nthe previous file is kept at ${r.backup}` : '';
      return `wrote ${r.output} (${summary})${r.warnings.length ? `; ${r.warnings.length} warning(s) above` : ''}${kept}`;
    },
  },
});

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
