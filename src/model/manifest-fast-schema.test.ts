import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifestData } from './manifest-fast-schema.js';
import { manifestSchemas } from './manifest-schema.js';

/** The schema's own answer: output (key order included, through JSON) or the failure's issues. */
function bySchema(data: unknown): string {
  const r = manifestSchemas().ManifestSchema.safeParse(structuredClone(data));
  return r.success ? JSON.stringify(r.data) : `failed ${JSON.stringify(r.error.issues)}`;
}

function byLoop(data: unknown): string {
  const copy = structuredClone(data) as object;
  const r = parseManifestData(copy);
  // The input is given back as it came (the lists set aside are restored).
  expect(copy).toEqual(data);
  return r.success ? JSON.stringify(r.data) : `failed ${JSON.stringify(r.error.issues)}`;
}

const strings = fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('')), { maxLength: 3 });
/** Mostly `valid`, now and then `invalid`: a manifest must be valid but for one value to test that value. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: invalid });
/** Component field values, valid and not: the loop must vouch only where the schema agrees. */
const fieldValue = {
  name: mostly(fc.constantFrom('api', 'a.b_c-1', '9'), fc.constantFrom('-bad', 'sl/ash', '', 3)),
  path: mostly(fc.constantFrom('svc', '.', './x/', '../up'), fc.constantFrom('', null, 1)),
  kind: mostly(fc.constantFrom('service', 'library'), fc.constantFrom(1, null)),
  description: mostly(fc.string({ maxLength: 8 }), fc.boolean()),
  depends_on: mostly(strings, fc.constantFrom('x', [1], [null])),
  language: mostly(fc.oneof(fc.constant('go'), strings), fc.constantFrom(1, [2], {})),
  commands: mostly(fc.constant({ build: 'make' }), fc.constant({ x: 1 })),
  produces: mostly(strings, fc.constantFrom('p', [true])),
  deploys_to: mostly(strings, fc.constant({})),
  skills: mostly(strings, fc.constant([{}])),
  tags: mostly(fc.constantFrom(['a'], { t: true }), fc.constant('no')),
  agent_instructions: mostly(fc.string({ maxLength: 4 }), fc.constant([])),
  agent_profile: mostly(fc.constant({ skills: ['s'] }), fc.constant({ skills: ['BAD ID'] })),
  unknown_key: fc.constant(1),
} as const;
type Field = keyof typeof fieldValue;
const FIELDS = Object.keys(fieldValue) as Field[];

/** A component: fields in any order, each valid or not; mostly plain valid ones, as real manifests are. */
const component = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      { name: 'svc', path: 'svc', kind: 'service' },
      { path: 'lib', name: 'lib', depends_on: ['svc'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .shuffledSubarray(
        FIELDS.filter((k) => k !== 'name' && k !== 'path'),
        { minLength: 0, maxLength: 4 },
      )
      // Name and path (required) at a random place among the others.
      .chain((rest) =>
        fc.shuffledSubarray(['name', 'path', ...rest] as Field[], {
          minLength: rest.length + 2,
          maxLength: rest.length + 2,
        }),
      )
      .chain((keys) =>
        fc
          .tuple(...keys.map((k) => fieldValue[k]))
          .map((vals) => Object.fromEntries(keys.map((k, i) => [k, vals[i]]))),
      ),
  },
  { weight: 1, arbitrary: mostly(fc.constant({ name: 'n', path: 'n' }), fc.constantFrom(null, 'x', [], 3)) },
);

const repo = fc.record(
  {
    name: fc.constantFrom('r', 'r2', 'bad/name'),
    path: fc.constant('r'),
    components: fc.oneof(fc.array(component, { maxLength: 4 }), fc.constant('no')),
  },
  { requiredKeys: ['name'] },
);
const manifest = fc.record({
  workspace: fc.record({
    name: fc.constant('w'),
    projects: fc.array(
      fc.record(
        { name: fc.constantFrom('p', 'q'), repos: fc.array(repo, { maxLength: 3 }) },
        { requiredKeys: ['name'] },
      ),
      { maxLength: 3 },
    ),
  }),
});

describe('parseManifestData', () => {
  it('answers as ManifestSchema.safeParse does: the same output, key order included, or a failure', () => {
    fc.assert(
      fc.property(manifest, (m) => {
        expect(byLoop(m)).toBe(bySchema(m));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on every single wrong or unusual field value of an otherwise valid component', () => {
    const values: unknown[] = [
      '',
      'x',
      '-bad',
      'sl/ash',
      0,
      1,
      true,
      null,
      [],
      [1],
      ['a'],
      [null],
      {},
      { t: true },
      { x: 1 },
    ];
    values.push({ build: 'make' }, { skills: ['s'] }, { skills: [1] }, ['a', 2]);
    const keys = [...FIELDS, '__proto__', 'constructor'];
    for (const key of keys)
      for (const value of values) {
        const c = JSON.parse(JSON.stringify({ name: 'a', path: 'a' }));
        Object.defineProperty(c, key, { value, enumerable: true, writable: true, configurable: true });
        const m = {
          workspace: {
            projects: [{ name: 'p', repos: [{ name: 'r', components: [{ name: 'z', path: 'z' }, c] }] }],
          },
        };
        expect(byLoop(m), `${key}: ${JSON.stringify(value)}`).toBe(bySchema(m));
      }
  });

  it('puts the checked components back in the output, in the schema key order', () => {
    const data = {
      workspace: {
        projects: [
          {
            name: 'p',
            repos: [{ components: [{ path: 'a', depends_on: ['b'], name: 'a', kind: 'lib' }], name: 'r' }],
          },
        ],
      },
    };
    const r = parseManifestData(structuredClone(data));
    expect(r.success).toBe(true);
    const c = r.data!.workspace!.projects![0]!.repos[0]!;
    expect(Object.keys(c)).toEqual(['name', 'components']);
    expect(Object.keys(c.components![0]!)).toEqual(['name', 'path', 'kind', 'depends_on']);
    expect(JSON.stringify(r.data)).toBe(bySchema(data));
  });
});
