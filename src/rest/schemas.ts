/** JSON-schema fragments shared by the /v1 route schemas (they also make the OpenAPI document). */
export const facilityIdParam = {
  type: 'string',
  description: 'Facility id (UUID)',
} as const;

export const idParam = (description: string) => ({ type: 'string', description }) as const;

/** Query values arrive as strings; the domain reads and checks them. */
export const queryString = (description: string, maxLength = 64) =>
  ({ type: 'string', maxLength, description }) as const;

export const pageQuery = {
  page: { type: 'string', maxLength: 20, description: 'Page number, 1-based (default 1)' },
  per_page: { type: 'string', maxLength: 20, description: 'Page size' },
} as const;
