import { Type, type Static } from '@sinclair/typebox';
import type { MoveInReview } from './move-ins.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
import { cases, type ViewOf } from '../../contract/cases';
import { Day, Instant, Money, Nullable, Text, Uuid } from '../../contract/kit';

/** The review answer (DESIGN 6, Move-in review): instants in the facility's zone, money in units. */
export const schema = Type.Object(
  {
    session_id: Uuid(),
    expires_at: Instant(),
    unit_id: Uuid(),
    tenant_id: Nullable(Uuid()),
    move_in_date: Day(),
    cost: Type.Object({
      rent: Money(),
      fees: Type.Array(Type.Object({ id: Uuid(), description: Text(), amount: Money() })),
      total: Money(),
    }),
    documents: Type.Array(
      Type.Object({
        session_document_id: Uuid(),
        description: Text(),
        type: Text(),
        is_relevant: Type.Boolean(),
        created_at: Instant(),
      }),
    ),
  },
  { $id: 'MoveInReview' },
);

/** The REST path an event document downloads from, relative to the service's base address. */
export function documentDownloadPath(facilityId: string, documentId: string): string {
  return `/v1/${facilityId}/documents/${documentId}`;
}

/** The REST path a move-in session document downloads from while its session lives. */
export function sessionDocumentDownloadPath(
  facilityId: string,
  documentId: string,
  sessionId: string,
): string {
  return `/v1/${facilityId}/documents/${documentId}/session/${sessionId}`;
}

type ContractView = ViewOf<typeof schema>;

export type MoveInCostView = ContractView['cost'];

export type MoveInFeeView = MoveInCostView['fees'][number];

/** A session document as both transports show it; GraphQL adds whether it is signed and its path. */
export type SessionDocumentView = ContractView['documents'][number] & {
  esignable: boolean;
  downloadUrl: string;
};

/** A reviewed move-in as both transports show it: instants in the facility's zone, money in units. */
export type MoveInReviewView = Omit<ContractView, 'documents'> & { documents: SessionDocumentView[] };

const reviewCases = cases(schema);

export function present({ session, documents }: MoveInReview, timeZone: string): MoveInReviewView {
  return {
    sessionId: session.id,
    expiresAt: formatInstant(session.expiresAt, timeZone),
    unitId: session.unitId,
    tenantId: session.tenantId,
    moveInDate: session.moveInDate,
    cost: {
      rent: centsToAmount(session.rentCents),
      fees: session.fees.map((fee) => ({
        id: fee.id,
        description: fee.description,
        amount: centsToAmount(fee.amountCents),
      })),
      total: centsToAmount(session.totalCents),
    },
    documents: documents.map((document) => ({
      sessionDocumentId: document.id,
      description: document.description,
      type: document.type,
      isRelevant: document.isRelevant,
      esignable: document.esignable,
      createdAt: formatInstant(document.createdAt, timeZone),
      downloadUrl: sessionDocumentDownloadPath(session.facilityId, document.id, session.id),
    })),
  };
}

export function toContract(review: MoveInReview, timeZone: string): Static<typeof schema> {
  return reviewCases.toContract(present(review, timeZone));
}
