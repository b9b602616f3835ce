import { ValidationError } from '../../infra/index.js';
import { parseYamlSource, yamlToJs } from '../../model/index.js';
import { isPlainObject } from './merge.js';
import type { ResolvedTemplate } from './resolve.js';
import { TEMPLATE_LIMITS } from './schema.js';

/** What an input's `default_from` reads: the workspace's name and its folder's name. */
export interface AnswerFacts {
  workspace_name?: string;
  directory_name?: string;
}

export interface CheckedAnswers {
  /** Every input's answer, as a string. */
  values: Record<string, string>;
  /** Inputs that took their default. */
  defaulted: string[];
}

/**
 * The answers a template renders with: given answers (strings, numbers, booleans; stringified), else each input's
 * default (or `default_from`). Unknown answers are refused by name; so is a required input left without an answer
 * and without a default. hub has no interactive prompt: this is the `--no-prompt` behaviour, always.
 */
export function checkAnswers(
  t: ResolvedTemplate,
  answers: Readonly<Record<string, unknown>> | undefined,
  facts: AnswerFacts = {},
): CheckedAnswers {
  const inputs = t.manifest.inputs;
  const given = answers ?? {};
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(inputs, k));
  if (unknown.length > 0)
    throw new ValidationError(
      `answers: unknown answer(s) ${unknown.map((k) => `'${k}'`).join(', ')} for template '${t.id}'; its inputs: ${Object.keys(inputs).join(', ') || '(none)'}`,
      { field: 'answers', value: unknown, rule: 'known_input', unknown, inputs: Object.keys(inputs) },
    );
  const values: Record<string, string> = {};
  const defaulted: string[] = [];
  const missing: string[] = [];
  for (const [name, input] of Object.entries(inputs)) {
    const raw = given[name];
    if (raw !== undefined && raw !== null) {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
        throw new ValidationError(
          `answers.${name}: must be a string, number or boolean (got ${Array.isArray(raw) ? 'a list' : typeof raw})`,
          {
            field: `answers.${name}`,
            rule: 'scalar_answer',
          },
        );
      const value = String(raw);
      if (value.length > TEMPLATE_LIMITS.answerChars)
        throw new ValidationError(
          `answers.${name}: ${value.length} characters; at most ${TEMPLATE_LIMITS.answerChars}`,
          {
            field: `answers.${name}`,
            rule: 'max_answer_chars',
            limit: TEMPLATE_LIMITS.answerChars,
          },
        );
      if (value !== '' || !input.required) {
        values[name] = value;
        continue;
      }
    }
    // default_from wins when the workspace gives that fact; `default` covers the case where it does not.
    const fact = input.default_from ? facts[input.default_from] : undefined;
    const fallback = fact ? fact : input.default !== undefined ? String(input.default) : undefined;
    if (fallback !== undefined && (fallback !== '' || !input.required)) {
      values[name] = fallback;
      defaulted.push(name);
    } else if (!input.required) values[name] = '';
    else missing.push(name);
  }
  if (missing.length > 0)
    throw new ValidationError(
      `answers: no answer for ${missing.map((k) => `'${k}'`).join(', ')} of template '${t.id}' and no default (give them in --answers-file; hub never prompts)`,
      { field: 'answers', value: missing, rule: 'required_answer', missing },
    );
  return { values, defaulted };
}

/** Parses an answers file (YAML, or JSON, which YAML reads too): a mapping of input name to value. */
export function parseAnswers(text: string, shown: string): Record<string, unknown> {
  const src = parseYamlSource(text, shown, 'answers file');
  const data = yamlToJs(src, 'answers file') ?? {};
  if (!isPlainObject(data))
    throw new ValidationError(`answers file ${shown}: must be a mapping of input name to answer`, {
      field: 'answers_file',
      value: shown,
      rule: 'mapping',
    });
  return data;
}
