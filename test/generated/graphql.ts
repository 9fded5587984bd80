/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** What to price: the same fields as REST move_in. */
export type MoveInReviewInput = {
  /** Today or later at the facility (default: today where the facility is). */
  moveInDate?: string | null | undefined;
  /** A tenant of the facility, when known. */
  tenantId?: string | null | undefined;
  /** A unit of the facility. */
  unitId: string;
};

export type FacilityQueryVariables = Exact<{
  id: string;
}>;


export type FacilityQuery = { facility: { id: string, name: string, timeZone: string, company: { id: string, name: string } } | null };

export type FacilityFlippersQueryVariables = Exact<{
  id: string;
  name: string;
}>;


export type FacilityFlippersQuery = { facility: { id: string, flippers: Array<string>, flipper: boolean } | null };

export type CompanyFacilitiesQueryVariables = Exact<{
  id: string;
}>;


export type CompanyFacilitiesQuery = { company: { id: string, name: string, facilities: Array<{ id: string, name: string, timeZone: string }> } | null };

export type ReviewMoveInCostMutationVariables = Exact<{
  facilityId: string;
  input: MoveInReviewInput;
}>;


export type ReviewMoveInCostMutation = { reviewMoveInCost: { sessionId: string, expiresAt: string, unitId: string, tenantId: string | null, moveInDate: string, cost: { rent: number, total: number, fees: Array<{ id: string, description: string, amount: number }> }, documents: Array<{ sessionDocumentId: string, description: string, type: string, isRelevant: boolean, esignable: boolean, createdAt: string, downloadUrl: string }> } };

export type EventDocumentDownloadsQueryVariables = Exact<{
  id: string;
  eventId: string;
}>;


export type EventDocumentDownloadsQuery = { facility: { event: { documents: { entries: Array<{ id: string, description: string, downloadUrl: string }> } } | null } | null };
