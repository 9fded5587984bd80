/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** Kinds of bank account for ACH. */
export type AccountType =
  | 'CHECKING'
  | 'SAVINGS';

/** Every field optional. */
export type BillingAddressInput = {
  address1?: string | null | undefined;
  address2?: string | null | undefined;
  city?: string | null | undefined;
  company?: string | null | undefined;
  postal?: string | null | undefined;
  state?: string | null | undefined;
};

/** Card brands accepted. */
export type CardType =
  | 'AMERICAN_EXPRESS'
  | 'DINERS'
  | 'DISCOVER'
  | 'JCB'
  | 'MASTERCARD'
  | 'VISA';

/** A note on a tenant, unit and/or ledger of the facility: at least one of the three ids. */
export type CreateNoteInput = {
  /** Fills in the ledger's tenant and unit; a different tenantId or unitId is a CONFLICT. */
  ledgerId?: string | null | undefined;
  /** 1-10,000 characters after trimming. */
  noteText: string;
  tenantId?: string | null | undefined;
  unitId?: string | null | undefined;
  /** The user writing the note (optional, stored). */
  userId?: string | null | undefined;
};

/** A new webhook endpoint of the company. */
export type CreateWebhookEndpointInput = {
  /** What it is for, at most 500 characters. */
  description?: string | null | undefined;
  /** The event types it receives: payment.succeeded, note.created, esign.sent, esign.delivered, esign.failed, document.viewed, document.signed, move_in.reviewed. */
  eventTypes: Array<string>;
  /** Where deliveries are POSTed: https (plain http only for hosts in WEBHOOK_ALLOW_HOSTS), at a public address. */
  url: string;
};

/** What an audit trail entry records. */
export type EsignAuditKind =
  /** The link was withdrawn. */
  | 'REVOKED'
  /** A message with a signing link was queued for the recipient. */
  | 'SENT'
  /** Signed through the link: the signature record. */
  | 'SIGNED'
  /** The signing page was first opened through the link. */
  | 'VIEWED';

/** Where the signing of a document, a signing link or an event is. */
export type EsignState =
  /** Every link ran out before it was signed: send it again. */
  | 'EXPIRED'
  /** Its link was withdrawn before it was signed. */
  | 'REVOKED'
  /** Its signing link was sent and has not been opened yet. */
  | 'SENT'
  /** Signed: downloads answer the signed PDF. */
  | 'SIGNED'
  /** The signing page was opened; nothing is signed yet. */
  | 'VIEWED';

/** The events that own documents. */
export type EventType =
  | 'MOVE_IN_UNIT_EVENT'
  | 'MOVE_OUT_UNIT_EVENT'
  | 'SUCCESSFUL_PAYMENT_EVENT';

export type InvoiceableAmountKind =
  | 'AMOUNT'
  | 'PERCENT';

export type InvoiceableItemKind =
  | 'FEE'
  | 'INSURANCE'
  | 'RETAIL'
  | 'SERVICE';

export type InvoiceableItemList =
  /** Every item: fees, insurance, services, retail (GET .../invoiceable_items). */
  | 'ALL'
  /** GET .../invoiceable_items/insurance */
  | 'INSURANCE'
  /** Retail items sold in the rental center (GET .../invoiceable_items/rental_center). */
  | 'RENTAL_CENTER'
  /** GET .../invoiceable_items/retail */
  | 'RETAIL'
  /** GET .../invoiceable_items/services */
  | 'SERVICES';

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

/** Cards and ACH are charged through the payment gateway; the rest are tendered at the counter. */
export type PaymentKind =
  | 'ACH'
  | 'CARD_SWIPE'
  | 'CASH'
  | 'CHECK'
  | 'CREDIT_CARD'
  | 'MONEY_ORDER';

/** A saved method (paymentMethodId), or a new one: firstName, lastName, kind, billingAddress and the fields of its kind. The same rules as REST payment_method: card numbers by Luhn and brand, security code length, MM/YY expiry, track data, ABA routing checksum, account confirmation, tenders. */
export type PaymentMethodInput = {
  /** ACH: 4-17 digits. */
  accountNumber?: string | null | undefined;
  /** ACH: equal to accountNumber. */
  accountNumberConfirmation?: string | null | undefined;
  accountType?: AccountType | null | undefined;
  /** CASH: at least the charge; the rest is changeDue. */
  amountTendered?: number | null | undefined;
  bankName?: string | null | undefined;
  /** Required for a new method. */
  billingAddress?: BillingAddressInput | null | undefined;
  /** Postal code, when billingAddress has none. */
  billingPostal?: string | null | undefined;
  /** CREDIT_CARD: 12-19 digits. */
  cardNumber?: string | null | undefined;
  /** CREDIT_CARD: the brand of cardNumber. */
  cardType?: CardType | null | undefined;
  /** CHECK: equal to the charge. */
  checkAmount?: number | null | undefined;
  /** CHECK: 1-15 digits. */
  checkNumber?: string | null | undefined;
  /** CREDIT_CARD: MM/YY, not in the past. */
  expirationDate?: string | null | undefined;
  firstName?: string | null | undefined;
  kind?: PaymentKind | null | undefined;
  lastName?: string | null | undefined;
  /** CARD_SWIPE: track 1 and/or track 2 as the reader sends them. */
  magneticTrack?: string | null | undefined;
  /** MONEY_ORDER: equal to the charge. */
  moneyOrderAmount?: number | null | undefined;
  nameOnCheck?: string | null | undefined;
  /** A saved (reuseable) method of the facility, and of the tenant when one is given. */
  paymentMethodId?: string | null | undefined;
  /** MONEY_ORDER. */
  referenceNumber?: string | null | undefined;
  /** Save the method to pay with again (cards and ACH): only brand, last four digits and expiry are kept. */
  reuseable?: boolean | null | undefined;
  /** ACH: 9 digits with a valid ABA checksum. */
  routingNumber?: string | null | undefined;
  /** CREDIT_CARD: 4 digits for American Express, 3 for others. */
  securityCode?: string | null | undefined;
};

/** The same fields as REST retail_payment and payment_method. */
export type RetailPaymentInput = {
  /** At least one retail item of the facility. */
  invoiceableItems: Array<RetailPaymentItemInput>;
  paymentMethod: PaymentMethodInput;
  /** A tenant of the facility to associate the payment with. */
  tenantId?: string | null | undefined;
};

/** One line: a retail item of the facility and how many. */
export type RetailPaymentItemInput = {
  invoiceableItemId: string;
  /** A whole number from 1 to 1000. */
  quantity: number;
};

export type WebhookEndpointFieldsFragment = { id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null };

export type WebhookDeliveryFieldsFragment = { id: string, eventType: string, facilityId: string, status: OutboxStatus, attempts: number, responseCode: number | null, lastError: string | null, nextAttemptAt: string | null, createdAt: string, deliveredAt: string | null };

export type CreateWebhookEndpointMutationVariables = Exact<{
  companyId: string;
  input: CreateWebhookEndpointInput;
}>;


export type CreateWebhookEndpointMutation = { createWebhookEndpoint: { secret: string, endpoint: { id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null } } };

export type DisableWebhookEndpointMutationVariables = Exact<{
  id: string;
}>;


export type DisableWebhookEndpointMutation = { disableWebhookEndpoint: { id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null } };

export type EnableWebhookEndpointMutationVariables = Exact<{
  id: string;
}>;


export type EnableWebhookEndpointMutation = { enableWebhookEndpoint: { id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null } };

export type RotateWebhookSecretMutationVariables = Exact<{
  id: string;
}>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string, endpoint: { id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null } } };

export type ReplayWebhookMessageMutationVariables = Exact<{
  id: string;
}>;


export type ReplayWebhookMessageMutation = { replayWebhookMessage: { id: string, eventType: string, facilityId: string, status: OutboxStatus, attempts: number, responseCode: number | null, lastError: string | null, nextAttemptAt: string | null, createdAt: string, deliveredAt: string | null } };

export type CompanyWebhooksQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
  status?: OutboxStatus | null | undefined;
}>;


export type CompanyWebhooksQuery = { company: { id: string, webhookEndpoints: Array<{ id: string, url: string, description: string | null, eventTypes: Array<string>, enabled: boolean, disabledAt: string | null, disabledReason: string | null, failingSince: string | null, createdAt: string, secretRotatedAt: string | null, previousSecretExpiresAt: string | null, deliveries: Array<{ id: string, eventType: string, facilityId: string, status: OutboxStatus, attempts: number, responseCode: number | null, lastError: string | null, nextAttemptAt: string | null, createdAt: string, deliveredAt: string | null }> }> } | null };

export type InvoiceableItemsConnectionQueryVariables = Exact<{
  id: string;
  list?: InvoiceableItemList | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type InvoiceableItemsConnectionQuery = { facility: { invoiceableItemsConnection: { totalCount: number, edges: Array<{ cursor: string, node:
          | { id: string, kind: InvoiceableItemKind, description: string }
          | { id: string, kind: InvoiceableItemKind, description: string }
          | { id: string, kind: InvoiceableItemKind, description: string }
          | { id: string, kind: InvoiceableItemKind, description: string }
         }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } } | null };

export type RateChangeUpdatesConnectionQueryVariables = Exact<{
  id: string;
  updatedAfter: string;
  updatedBefore: string;
  createdBy?: number | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type RateChangeUpdatesConnectionQuery = { company: { rateChangeUpdatesConnection: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, facilityName: string, tenantName: string, changedAt: string } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } } | null };

export type EventEsignQueryVariables = Exact<{
  facilityId: string;
  eventId: string;
}>;


export type EventEsignQuery = { facility: { id: string, event: { id: string, esignState: EsignState | null, documents: { entries: Array<{ id: string, description: string, esign: { state: EsignState, sentAt: string, firstViewedAt: string | null, signedAt: string | null, signerName: string | null, signedSha256: string | null, links: Array<{ messageId: string, eventId: string, channel: OutboxChannel, recipient: string, state: EsignState, createdAt: string, expiresAt: string, firstViewedAt: string | null, revokedAt: string | null, signedAt: string | null, documents: Array<{ documentId: string, description: string, documentSha256: string }> }>, auditTrail: Array<{ kind: EsignAuditKind, at: string, messageId: string, channel: OutboxChannel, recipient: string, signerName: string | null, ipAddress: string | null, userAgent: string | null, consentVersion: string | null, documentSha256: string | null, signedSha256: string | null }> } | null }> } } | null } | null };

export type EventsByEsignStateQueryVariables = Exact<{
  facilityId: string;
  esignState?: EsignState | null | undefined;
  perPage?: number | null | undefined;
}>;


export type EventsByEsignStateQuery = { facility: { id: string, events: { entries: Array<{ id: string, esignState: EsignState | null }>, pagination: { totalEntries: number } } } | null };

export type OutboxEsignLinksQueryVariables = Exact<{
  facilityId: string;
}>;


export type OutboxEsignLinksQuery = { facility: { id: string, outboxMessages: { entries: Array<{ id: string, channel: OutboxChannel, esignLink: { messageId: string, state: EsignState, recipient: string, expiresAt: string, revokedAt: string | null } | null }> } } | null };

export type SendEsignableDocumentsMutationVariables = Exact<{
  facilityId: string;
  eventId: string;
  email?: string | null | undefined;
  smsNumber?: string | null | undefined;
}>;


export type SendEsignableDocumentsMutation = { sendEsignableDocuments: { eventId: string, messages: Array<{ id: string, eventId: string | null, channel: OutboxChannel, recipient: string, status: OutboxStatus, attempts: number, nextAttemptAt: string | null, lastError: string | null, createdAt: string, sentAt: string | null, subject: string | null, documents: Array<{ id: string, description: string, url: string }> }> } };

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

export type EventLedgerQueryVariables = Exact<{
  id: string;
  eventId: string;
}>;


export type EventLedgerQuery = { facility: { event: { id: string, ledgerId: string | null, ledger: { id: string, tenant: { name: string } } | null } | null } | null };

export type FacilityOverviewQueryVariables = Exact<{
  facilityId: string;
}>;


export type FacilityOverviewQuery = { facility: { name: string, timeZone: string, flippers: Array<string>, invoiceableItems: { entries: Array<
        | { description: string, amount: number | null, total: number }
        | { description: string, amount: number | null, total: number }
        | { quantity: number | null, description: string, amount: number | null, total: number }
        | { description: string, amount: number | null, total: number }
      >, pagination: { currentPage: number, totalPages: number, totalEntries: number, nextPage: number | null } } } | null };

export type LedgerTenantNotesQueryVariables = Exact<{
  facilityId: string;
  ledgerId: string;
}>;


export type LedgerTenantNotesQuery = { facility: { ledger: { id: string, unit: { name: string, rate: number }, insurance: { amount: number, data: { description: string } } | null, tenant: { name: string, email: string | null, notes: Array<{ createdAt: string, createdBy: { name: string }, notes: Array<{ note: string }> }> } } | null } | null };

export type CompanyRateChangesQueryVariables = Exact<{
  companyId: string;
  after: string;
  before: string;
}>;


export type CompanyRateChangesQuery = { company: { name: string, rateChangeUpdates: { entries: Array<{ facilityName: string, tenantName: string, unitName: string, changedAt: string, oldRate: number, newRate: number, unit: { ledgers: Array<{ id: string }> } | null }>, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null };

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

type InvoiceableItemFields_FeeItem_Fragment = { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> };

type InvoiceableItemFields_InsuranceItem_Fragment = { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> };

type InvoiceableItemFields_RetailItem_Fragment = { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> };

type InvoiceableItemFields_ServiceItem_Fragment = { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> };

export type InvoiceableItemFieldsFragment =
  | InvoiceableItemFields_FeeItem_Fragment
  | InvoiceableItemFields_InsuranceItem_Fragment
  | InvoiceableItemFields_RetailItem_Fragment
  | InvoiceableItemFields_ServiceItem_Fragment
;

export type InvoiceableItemsQueryVariables = Exact<{
  id: string;
  list?: InvoiceableItemList | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type InvoiceableItemsQuery = { facility: { invoiceableItems: { entries: Array<
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
      >, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null };

export type InvoiceableItemFeesQueryVariables = Exact<{
  id: string;
}>;


export type InvoiceableItemFeesQuery = { facility: { invoiceableItemFees: { securityDeposit:
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
       | null, onlinePayment:
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
       | null, reservation:
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
       | null, moveInFees: Array<
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
      >, transferFees: Array<
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
      >, other: Array<
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { coverageAmount: number | null, coveragePercentage: number | null, providerName: string | null, providerKey: string | null, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { quantity: number | null, isRentalCenterLock: boolean, id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
        | { id: string, productCode: string, kind: InvoiceableItemKind, description: string, requiredAtMoveIn: boolean, requiredAtTransfer: boolean, amount: number | null, amountIsVariable: boolean, shortDescription: string | null, showInSalesCenter: boolean, taxTotal: number, total: number, invoiceableAmounts: Array<{ id: string, amount: number, kind: InvoiceableAmountKind, limit: number | null }> }
      > } } | null };

export type PaymentLineItemsQueryVariables = Exact<{
  id: string;
}>;


export type PaymentLineItemsQuery = { facility: { events: { entries: Array<{ successfulPayment: { lines: Array<{ invoiceableItemId: string, quantity: number, invoiceableItem:
              | { id: string, description: string, total: number }
              | { id: string, description: string, total: number }
              | { quantity: number | null, id: string, description: string, total: number }
              | { id: string, description: string, total: number }
             | null }> } | null }> } } | null };

export type LedgerInsuranceServicesAndDiscountsQueryVariables = Exact<{
  id: string;
  ledgerId: string;
}>;


export type LedgerInsuranceServicesAndDiscountsQuery = { facility: { ledger: { id: string, insurance: { id: string, effectiveDate: string, cancelDate: string | null, amount: number, data: { description: string, retainType: string, productCode: string, policyNumber: string, retainAmount: string, coverageAmount: string, coveragePercentage: string, insuranceProviderKey: string } } | null, services: Array<{ id: string, effectiveDate: string, cancelDate: string | null, amount: number, data: { description: string, productCode: string } }>, discounts: Array<{ id: string, name: string, kind: string, description: string, startDate: string, endDate: string | null, minOccupancyMonths: number | null }> } | null } | null };

export type LedgerRecordsQueryVariables = Exact<{
  id: string;
  ledgerId: string;
}>;


export type LedgerRecordsQuery = { facility: { ledger: { id: string, tenantId: string, unitId: string, facility: { id: string }, tenant: { id: string, firstName: string, lastName: string, name: string, email: string | null, phone: string | null }, unit: { id: string, name: string, rate: number }, notes: Array<{ id: string, notes: Array<{ note: string }> }> } | null } | null };

export type TenantAndUnitQueryVariables = Exact<{
  id: string;
  tenantId: string;
  unitId: string;
}>;


export type TenantAndUnitQuery = { facility: { tenant: { id: string, name: string, facility: { id: string }, ledgers: Array<{ id: string, unit: { name: string } }>, notes: Array<{ id: string, tenantId: string | null, unitId: string | null, ledgerId: string | null, userId: string | null, createdAt: string, createdBy: { id: string, name: string, type: string }, notes: Array<{ id: string, note: string, createdAt: string }>, tenant: { id: string } | null, unit: { id: string } | null, ledger: { id: string } | null }> } | null, unit: { id: string, name: string, rate: number, facility: { id: string }, ledgers: Array<{ id: string, tenant: { name: string } }>, notes: Array<{ id: string, notes: Array<{ note: string }> }> } | null } | null };

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

export type CreateNoteMutationVariables = Exact<{
  facilityId: string;
  input: CreateNoteInput;
}>;


export type CreateNoteMutation = { createNote: { id: string, unitId: string | null, tenantId: string | null, ledgerId: string | null, userId: string | null, createdAt: string, notes: Array<{ id: string, note: string, createdAt: string }>, createdBy: { id: string, name: string, type: string }, tenant: { id: string, notes: Array<{ id: string }> } | null, unit: { id: string } | null, ledger: { id: string } | null } };

export type PaymentFieldsFragment = { id: string, amount: number, success: boolean, date: string, changeDue: number, paymentMethod: { id: string, kind: PaymentKind, firstName: string, lastName: string, reuseable: boolean, cardNumber: string | null, cardType: string | null, expirationDate: string | null, billingAddress: { company: string | null, address1: string | null, address2: string | null, city: string | null, state: string | null, postal: string | null } | null }, lines: Array<{ invoiceableItemId: string, description: string, quantity: number, unitTotal: number, lineTotal: number }> };

export type PayRetailMutationVariables = Exact<{
  facilityId: string;
  input: RetailPaymentInput;
  idempotencyKey?: string | null | undefined;
}>;


export type PayRetailMutation = { payRetail: { id: string, amount: number, success: boolean, date: string, changeDue: number, tenant: { id: string, firstName: string } | null, facility: { id: string }, event: { id: string, type: EventType, createdAt: string, documents: { entries: Array<{ description: string, esignable: boolean }> } }, paymentMethod: { id: string, kind: PaymentKind, firstName: string, lastName: string, reuseable: boolean, cardNumber: string | null, cardType: string | null, expirationDate: string | null, billingAddress: { company: string | null, address1: string | null, address2: string | null, city: string | null, state: string | null, postal: string | null } | null }, lines: Array<{ invoiceableItemId: string, description: string, quantity: number, unitTotal: number, lineTotal: number }> } };

export type FacilityPaymentEventsQueryVariables = Exact<{
  id: string;
}>;


export type FacilityPaymentEventsQuery = { facility: { events: { entries: Array<{ id: string, type: EventType, createdAt: string, successfulPayment: { id: string, amount: number, success: boolean, date: string, changeDue: number, paymentMethod: { id: string, kind: PaymentKind, firstName: string, lastName: string, reuseable: boolean, cardNumber: string | null, cardType: string | null, expirationDate: string | null, billingAddress: { company: string | null, address1: string | null, address2: string | null, city: string | null, state: string | null, postal: string | null } | null }, lines: Array<{ invoiceableItemId: string, description: string, quantity: number, unitTotal: number, lineTotal: number }> } | null }> } } | null };

export type FacilityEventPaymentQueryVariables = Exact<{
  id: string;
  eventId: string;
}>;


export type FacilityEventPaymentQuery = { facility: { event: { id: string, type: EventType, successfulPayment: { id: string, amount: number } | null } | null } | null };

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

export type RateChangeUpdatesQueryVariables = Exact<{
  id: string;
  updatedAfter: string;
  updatedBefore: string;
  createdBy?: number | null | undefined;
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type RateChangeUpdatesQuery = { company: { rateChangeUpdates: { entries: Array<{ id: string, facilityName: string, tenantId: string, tenantName: string, unitId: string, unitName: string, changedAt: string, oldRate: number, newRate: number, effectiveOnDate: string }>, pagination: { currentPage: number, totalPages: number, perPage: number, totalEntries: number, previousPage: number | null, nextPage: number | null } } } | null };

export type RateChangeUpdateRecordsQueryVariables = Exact<{
  id: string;
  updatedAfter: string;
  updatedBefore: string;
}>;


export type RateChangeUpdateRecordsQuery = { company: { rateChangeUpdates: { entries: Array<{ id: string, createdBy: number | null, facility: { id: string, name: string } | null, tenant: { id: string, name: string } | null, unit: { id: string, name: string } | null }> } } | null };
