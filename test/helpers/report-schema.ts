import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * docs/report.schema.json compiled once by Ajv 8 (JSON Schema 2020-12), for every test that
 * checks a report the project writes: the Vitest and Jest reporters', merged shards of either,
 * `crosscheck bench` and its merged shards. One set-up, so every report is held to the same
 * schema under the same options.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The schema as published (the package exports it as `crosscheck/report.schema.json`). */
export const reportSchema: Record<string, unknown> = JSON.parse(
  readFileSync(join(ROOT, 'docs', 'report.schema.json'), 'utf8'),
);

// strict: an unknown keyword or a type mistake in the schema itself is an error, not ignored.
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate: ValidateFunction = ajv.compile(reportSchema);

/**
 * What is wrong with `value` as a crosscheck report, one Ajv message a line naming the field
 * (`/records/3/data/verdict must be equal to one of the allowed values`); empty when it is valid.
 */
export const reportSchemaProblems = (value: unknown): string =>
  validate(value) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
