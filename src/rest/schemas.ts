import { Type } from '@sinclair/typebox';

/** Schema parts shared by the /v1 route schemas (they also make the OpenAPI document). */
export const facilityIdParam = Type.String({ description: 'Facility id (UUID)' });

export const idParam = (description: string) => Type.String({ description });

/** The path parameters of a facility's routes. */
export const facilityParams = Type.Object({ facility_id: facilityIdParam });

/** Query values arrive as strings; the domain reads and checks them. */
export const queryString = (description: string, maxLength = 64) =>
  Type.Optional(Type.String({ maxLength, description }));

export const pageQuery = {
  page: Type.Optional(Type.String({ maxLength: 20, description: 'Page number, 1-based (default 1)' })),
  per_page: Type.Optional(Type.String({ maxLength: 20, description: 'Page size' })),
};
