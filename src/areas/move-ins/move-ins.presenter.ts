import type { MoveInReview } from './move-ins.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';

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

export interface MoveInCostView {
  rent: number;
  fees: Array<{ id: string; description: string; amount: number }>;
  total: number;
}

export interface SessionDocumentView {
  sessionDocumentId: string;
  description: string;
  type: string;
  isRelevant: boolean;
  esignable: boolean;
  createdAt: string;
  downloadUrl: string;
}

/** A reviewed move-in as both transports show it: instants in the facility's zone, money in units. */
export interface MoveInReviewView {
  sessionId: string;
  expiresAt: string;
  unitId: string;
  tenantId: string | null;
  moveInDate: string;
  cost: MoveInCostView;
  documents: SessionDocumentView[];
}

export function presentMoveInReview(review: MoveInReview, timeZone: string): MoveInReviewView {
  const { session, documents } = review;
  return {
    sessionId: session.id,
    expiresAt: formatInstant(session.expiresAt, timeZone),
    unitId: session.unitId,
    tenantId: session.tenantId,
    moveInDate: session.moveInDate,
    cost: {
      rent: centsToAmount(session.cost.rentCents),
      fees: session.cost.fees.map((fee) => ({
        id: fee.id,
        description: fee.description,
        amount: centsToAmount(fee.amountCents),
      })),
      total: centsToAmount(session.cost.totalCents),
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
