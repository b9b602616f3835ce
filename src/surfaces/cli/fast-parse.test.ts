import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CommandEntry, describeCommands } from '../../ops/index.js';
import { buildProgram, commandsFor } from './build-program.js';
import { fastParse } from './fast-parse.js';

const ENTRIES = (await describeCommands()).commands;
const GLOBAL_KEYS = ['configPath', 'definition', 'appconfig', 'json'] as const;

/** What commander makes of argv: the leaf's id, its input and the global options. */
async function commanderParse(argv: string[]) {
  let got: { id: string; input: Record<string, unknown>; globals: Record<string, unknown> } | undefined;
  const program = buildProgram(commandsFor(ENTRIES, argv), '0.0.0', async ({ entry, input, command }) => {
    const all = command.optsWithGlobals();
    const globals: Record<string, unknown> = {};
    for (const k of GLOBAL_KEYS) if (all[k] !== undefined) globals[k] = all[k];
    got = { id: entry.id, input, globals };
  });
  await program.parseAsync(argv, { from: 'user' });
  return got;
}

const word = fc.stringMatching(/^[a-z0-9][a-z0-9._/]{0,11}$/);

/** A plain command line for one entry: its required parts, some optional ones, globals before or after. */
function plainArgv(entry: CommandEntry): fc.Arbitrary<string[]> {
  const optionTokens = entry.options
    .filter((o) => o.kind !== 'list')
    .map((o) => {
      const value: fc.Arbitrary<string[]> =
        o.kind === 'boolean'
          ? fc.constant([])
          : o.choices
            ? fc.constantFrom(...o.choices).map((c) => [c])
            : o.kind === 'number'
              ? fc.nat(500).map((n) => [String(n)])
              : o.kind === 'json'
                ? fc
                    .oneof(
                      word,
                      fc.dictionary(word, word, { maxKeys: 2 }).map((d) => JSON.stringify(d)),
                    )
                    .map((v) => [v])
                : word.map((v) => [v]);
      const flag = o.short ? fc.constantFrom(`--${o.flag}`, `-${o.short}`) : fc.constant(`--${o.flag}`);
      const tokens = fc.tuple(flag, value).map(([f, v]) => [f, ...v]);
      return o.required
        ? tokens.map((t) => [t])
        : fc.option(tokens, { nil: undefined }).map((t) => (t ? [t] : []));
    });
  const positional = fc
    .tuple(...entry.args.map(() => word))
    .chain((values) =>
      fc
        .nat(entry.args.length)
        .map((n) => values.slice(0, Math.max(n, entry.args.filter((a) => a.required).length))),
    );
  const globals = fc.subarray([
    ['-c', 'x.yml'],
    ['--definition', 'd.yml'],
    ['--appconfig', 'a.yaml'],
    ['--json'],
  ]);
  return fc
    .tuple(fc.tuple(...optionTokens), positional, globals, fc.boolean(), fc.nat())
    .map(([opts, pos, glob, globalsFirst, seed]) => {
      const groups = opts.flat();
      // Options may sit before, between or after the arguments; their own order is shuffled by the seed.
      const rest: string[][] = pos.map((p) => [p]);
      groups.forEach((g, i) => {
        rest.splice((seed + i * 7) % (rest.length + 1), 0, g);
      });
      const words = entry.command.split(' ');
      return globalsFirst
        ? [...glob.flat(), ...words, ...rest.flat()]
        : [...words, ...rest.flat(), ...glob.flat()];
    });
}

describe('fastParse', () => {
  it('parses every command exactly as commander does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENTRIES).chain((e) => plainArgv(e)),
        async (argv) => {
          const fast = fastParse(ENTRIES, argv);
          expect(fast, argv.join(' ')).toBeDefined();
          const slow = await commanderParse(argv);
          expect({ id: fast!.entry.id, input: fast!.input, globals: fast!.globals }, argv.join(' ')).toEqual(
            slow,
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  const find = (pred: (e: CommandEntry) => boolean) => ENTRIES.find(pred)!;
  const withChoices = find((e) => e.options.some((o) => o.choices && !o.required));
  const choice = withChoices.options.find((o) => o.choices && !o.required)!;
  const withList = find((e) => e.options.some((o) => o.kind === 'list') && e.args.length === 0);
  const list = withList.options.find((o) => o.kind === 'list')!;
  const negatable = find((e) => e.options.some((o) => o.kind === 'boolean' && o.defaultValue === true));
  const negated = negatable.options.find((o) => o.kind === 'boolean' && o.defaultValue === true)!;

  /** The shortest valid command line of an entry: its words, required arguments and required options. */
  const minimal = (e: CommandEntry) => [
    ...e.command.split(' '),
    ...e.args.filter((a) => a.required).map(() => 'x'),
    ...e.options.filter((o) => o.required).flatMap((o) => [`--${o.flag}`, o.choices?.[0] ?? 'x']),
  ];

  it.each([withChoices, withList, negatable])('takes the minimal command line of $command itself', (e) => {
    expect(fastParse(ENTRIES, minimal(e))).toBeDefined();
  });

  it.each([
    ['no command', []],
    ['root help', ['--help']],
    ['version', ['-V']],
    ['command help', ['component', 'resolve', 'x', '--help']],
    ['a group', ['component']],
    ['an unknown command', ['componentz', 'list']],
    ['a missing argument', ['component', 'resolve']],
    ['a surplus argument', ['component', 'resolve', 'a', 'b']],
    ['an unknown option', ['component', 'list', '--bogus']],
    ['a missing option value', ['component', 'list', '--project']],
    ['a value that looks like an option', ['component', 'list', '--project', '-x']],
    ['a value outside the choices', [...minimal(withChoices), `--${choice.flag}`, 'nope']],
    ['a repeatable option', [...minimal(withList), `--${list.flag}`, 'a', 'b']],
    ['a negation', [...minimal(negatable), `--no-${negated.flag}`]],
    ['the end of options', ['component', 'resolve', '--', '-x']],
    ['a server command', ['mcp', 'serve']],
  ])('leaves %s to commander', (_what, argv) => {
    expect(fastParse(ENTRIES, argv as string[])).toBeUndefined();
  });

  it('leaves a field that defaults to true unset when neither --<flag> nor --no-<flag> is given, as commander does', async () => {
    const argv = minimal(negatable);
    const fast = fastParse(ENTRIES, argv);
    expect(fast?.input).not.toHaveProperty(negated.field);
    expect((await commanderParse(argv))?.input).toEqual(fast?.input);
  });

  it('takes --<flag> of a field that defaults to true, as commander does', async () => {
    const argv = [...minimal(negatable), `--${negated.flag}`];
    const fast = fastParse(ENTRIES, argv);
    expect(fast?.input[negated.field]).toBe(true);
    expect((await commanderParse(argv))?.input).toEqual(fast?.input);
    expect((await commanderParse([...minimal(negatable), `--no-${negated.flag}`]))?.input).toMatchObject({
      [negated.field]: false,
    });
  });
});
