/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** The events that own documents. */
export type EventType =
  | 'MOVE_IN_UNIT_EVENT'
  | 'MOVE_OUT_UNIT_EVENT'
  | 'SUCCESSFUL_PAYMENT_EVENT';

/** What to price: the same fields as REST move_in. */
export type MoveInReviewInput = {
  /** Today or later at the facility (default: today where the facility is). */
  moveInDate?: string | null | undefined;
  /** A tenant of the facility, when known. */
  tenantId?: string | null | undefined;
  /** A unit of the facility. */
  unitId: string;
};

/** How a message is delivered. */
export type OutboxChannel =
  | 'EMAIL'
  | 'SMS';

/** Where a message is in its delivery. */
export type OutboxStatus =
  /** Every attempt failed; lastError says why. */
  | 'FAILED'
  /** Waiting for its (next) attempt, or for a transport to be configured. */
  | 'PENDING'
  /** Claimed by a worker that is sending it now. */
  | 'SENDING'
  /** Accepted by the SMTP server or the SMS provider. */
  | 'SENT';

export type SendEsignableDocumentsMutationVariables = Exact<{
  facilityId: string;
  eventId: string;
  email?: string | null | undefined;
  smsNumber?: string | null | undefined;
}>;


export type SendEsignableDocumentsMutation = { sendEsignableDocuments: { messages: Array<{ id: string, eventId: string | null, channel: OutboxChannel, recipient: string, status: OutboxStatus, attempts: number, nextAttemptAt: string | null, lastError: string | null, createdAt: string, sentAt: string | null, subject: string | null, documents: Array<{ id: string, description: string, url: string }> }> } };

export type FacilityOutboxQueryVariables = Exact<{
  id: string;
  status?: OutboxStatus | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type FacilityOutboxQuery = { facility: { id: string, outboxMessages: { entries: Array<{ id: string, channel: OutboxChannel, recipient: string, status: OutboxStatus, attempts: number, nextAttemptAt: string | null, lastError: string | null, sentAt: string | null }>, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null };

export type FacilityEventsQueryVariables = Exact<{
  id: string;
  type?: EventType | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type FacilityEventsQuery = { facility: { id: string, events: { entries: Array<{ id: string, type: EventType, createdAt: string, ledgerId: string | null }>, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null };

export type EventDocumentsQueryVariables = Exact<{
  id: string;
  eventId: string;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type EventDocumentsQuery = { facility: { event: { id: string, type: EventType, createdAt: string, facility: { id: string }, documents: { entries: Array<{ id: string, description: string, type: string, isRelevant: boolean, esignable: boolean, createdAt: string, event: { id: string } }>, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null } | null };

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

export type RateAppliedActionsQueryVariables = Exact<{
  id: string;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
}>;


export type RateAppliedActionsQuery = { facility: { rateAppliedActions: Array<{ id: string, source: string, completedOn: string, completedBy: string, employeeId: string, userId: string, timeCompleted: string, event: string, oldLedgerId: string, newLedgerId: string, unitId: string, leadId: string, rateInfo: { standardRate: number, appliedRate: { name: string, amount: number } } }> } | null };

export type RateAppliedActionsGraphQueryVariables = Exact<{
  id: string;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
}>;


export type RateAppliedActionsGraphQuery = { facility: { rateAppliedActions: Array<{ id: string, newLedger: { id: string, tenant: { id: string, name: string, notes: Array<{ id: string, notes: Array<{ note: string }> }> }, unit: { id: string, name: string, rate: number }, insurance: { id: string, amount: number } | null, services: Array<{ id: string, amount: number }> } | null, oldLedger: { id: string } | null, unit: { id: string, name: string } | null }> } | null };
