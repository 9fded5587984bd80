import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { datasetSchema } from './dataset.schema';
import type { Dataset } from './dataset.types';

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    // ajv-formats also takes `urn:uuid:...`, which would be stored as an id no path can name.
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    compiled = ajv.compile(datasetSchema);
  }
  return compiled;
}

/** `/tenants/3/facility_id` as `tenants[3].facility_id`. */
export function recordPath(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function describe(error: ErrorObject): string {
  const path = recordPath(error.instancePath);
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    return `${path ? `${path}.` : ''}${missing}: is required`;
  }
  if (error.keyword === 'additionalProperties') {
    return `${path ? `${path}.` : ''}${String(error.params.additionalProperty)}: is not a known field`;
  }
  return `${path || '(file)'}: ${error.message ?? 'is invalid'}`;
}

/** A schema problem: its line, the list and record it is in (when it is in one), and its kind. */
export interface SchemaError {
  text: string;
  /** `['tenants', 3]` for a problem inside tenants[3]; `['tenants']` for the list; `[]` for the file. */
  at: [string?, number?];
  keyword: string;
}

/** Checks the file against the dataset schema (dataset.schema.ts); one entry per problem. */
export function schemaErrors(input: unknown): SchemaError[] {
  const validate = validator();
  if (validate(input)) return [];
  return (validate.errors ?? []).map((error) => {
    const [list, index] = error.instancePath.split('/').filter(Boolean);
    return {
      text: describe(error),
      at: [list, index !== undefined && /^\d+$/.test(index) ? Number(index) : undefined],
      keyword: error.keyword,
    };
  });
}

/** Checks the file against the dataset schema (dataset.schema.ts); returns one line per problem. */
export function schemaProblems(input: unknown): string[] {
  return schemaErrors(input).map((error) => error.text);
}

export function isDataset(input: unknown): input is Dataset {
  return validator()(input) === true;
}
