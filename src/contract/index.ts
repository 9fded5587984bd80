import { ErrorEnvelope, Meta, Pagination, Problem } from './envelope.contract';
import * as EventDocument from '../areas/documents/event-document.contract';
import * as InvoiceableItem from '../areas/invoiceable-items/invoiceable-item.contract';
import * as LedgerDiscount from '../areas/ledgers/ledger-discount.contract';
import { LedgerInsurance, LedgerService } from '../areas/ledgers/ledger-charges.contract';
import * as MoveInReview from '../areas/move-ins/move-in-review.contract';
import * as NoteEvent from '../areas/notes/note-event.contract';
import * as PaymentEvent from '../areas/payments/payment-event.contract';
import * as RateAppliedAction from '../areas/rate-applied-actions/rate-applied-action.contract';
import * as RateChangeUpdate from '../areas/rate-changes/rate-change-update.contract';

/**
 * The contract's records, each declared once: its schema (which documents it in /v1/openapi.json
 * and types its `toContract`) and its `toContract`, which writes it for REST answers, stored
 * listings and webhook payloads alike.
 */
export {
  EventDocument,
  InvoiceableItem,
  LedgerDiscount,
  LedgerInsurance,
  LedgerService,
  MoveInReview,
  NoteEvent,
  PaymentEvent,
  RateAppliedAction,
  RateChangeUpdate,
};

/** The envelope's shared schemas, components of the OpenAPI document (the areas' own follow: src/modules.ts). */
export const ENVELOPE_SCHEMAS = [Pagination, Meta, Problem, ErrorEnvelope];
