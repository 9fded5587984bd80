import { Type } from '@sinclair/typebox';
import { Nullable, OpenObject, RefTo, Text } from './kit';

/** The contract's envelope: what every answer carries besides its data. */

export const Pagination = Type.Object(
  {
    current_page: Type.Integer(),
    total_pages: Type.Integer(),
    per_page: Type.Integer(),
    total_entries: Type.Integer(),
    previous_page: Nullable(Type.Integer()),
    next_page: Nullable(Type.Integer()),
  },
  {
    $id: 'Pagination',
    description:
      "will_paginate's meta: total_pages is at least 1; previous_page and next_page are null at the ends",
  },
);

export const Meta = Type.Object(
  {
    pagination: Type.Optional(RefTo(Pagination)),
    status_code: Type.Integer(),
    status_message: Text(),
    status_cat: Text({ description: 'https://http.cat/<status>' }),
    request_method: Text(),
    request_id: Text({ description: "The caller's X-Request-Id when valid, else a new UUID" }),
    parameters: OpenObject({
      description:
        'Path, query and body parameters as received, applied defaults, card and bank values as [FILTERED]',
      additionalProperties: true,
    }),
    filters: Type.Optional(
      OpenObject({ additionalProperties: true, description: 'Rate change updates only' }),
    ),
    sorting: Type.Optional(Nullable(OpenObject({ description: 'Rate change updates only: null' }))),
    search_term: Type.Optional(Nullable(Text({ description: 'Rate change updates only: null' }))),
  },
  { $id: 'Meta', description: 'The envelope every answer carries, after its data keys' },
);

export const Problem = Type.Object({ parameter: Text(), message: Text() }, { $id: 'Problem' });

export const ErrorEnvelope = Type.Object(
  {
    meta: Type.Object({
      status_code: Type.Integer(),
      status_message: Text(),
      status_cat: Text(),
      request_method: Nullable(Text()),
      request_id: Text(),
      parameters: OpenObject({ additionalProperties: true }),
      message: Text({ description: 'Names the parameter at fault' }),
      error_code: Nullable(
        Type.Integer({ description: 'The contract error code (see the description of each status)' }),
      ),
      errors: Type.Array(RefTo(Problem)),
    }),
  },
  {
    $id: 'ErrorEnvelope',
    description: 'Every error: meta alone, with message, error_code and errors after the usual keys',
  },
);
