import { Field, InputType, ObjectType } from 'type-graphql';
import type { MoveInReview } from '../domain/move-ins/move-ins.types';
import { centsToAmount } from '../domain/shared/money';
import { formatInstant } from '../domain/shared/time';
import { DateTimeScalar, LocalDateScalar, MoneyScalar, UUIDScalar } from './scalars';

/** The REST path a document downloads from, relative to the service's base address. */
export function documentDownloadPath(facilityId: string, documentId: string): string {
  return `/v1/${facilityId}/documents/${documentId}`;
}

export function sessionDocumentDownloadPath(
  facilityId: string,
  documentId: string,
  sessionId: string,
): string {
  return `/v1/${facilityId}/documents/${documentId}/session/${sessionId}`;
}

@InputType('MoveInReviewInput', { description: 'What to price: the same fields as REST move_in.' })
export class MoveInReviewInput {
  @Field(() => UUIDScalar, { description: 'A unit of the facility.' })
  unitId: string;

  @Field(() => UUIDScalar, { nullable: true, description: 'A tenant of the facility, when known.' })
  tenantId?: string | null;

  @Field(() => LocalDateScalar, {
    nullable: true,
    description: 'Today or later at the facility (default: today where the facility is).',
  })
  moveInDate?: string | null;
}

@ObjectType('MoveInFee', { simpleResolvers: true, description: 'A fee item charged at every move-in.' })
export class MoveInFeeObject {
  @Field(() => UUIDScalar, { description: 'The invoiceable item.' })
  id: string;

  @Field(() => String)
  description: string;

  @Field(() => MoneyScalar, { description: "The item's total, tax included." })
  amount: number;
}

@ObjectType('MoveInCost', { simpleResolvers: true, description: 'What a move-in costs.' })
export class MoveInCostObject {
  @Field(() => MoneyScalar, { description: "The unit's monthly rate." })
  rent: number;

  @Field(() => [MoveInFeeObject], { description: 'Fees required at move-in, by description, then id.' })
  fees: MoveInFeeObject[];

  @Field(() => MoneyScalar, { description: 'Rent plus every fee.' })
  total: number;
}

@ObjectType('SessionDocument', {
  simpleResolvers: true,
  description: 'A move-in document, downloadable as a PDF until its session expires.',
})
export class SessionDocumentObject {
  @Field(() => UUIDScalar, { description: 'Not a document id: it downloads only with its session.' })
  sessionDocumentId: string;

  @Field(() => String)
  description: string;

  @Field(() => String)
  type: string;

  @Field(() => Boolean)
  isRelevant: boolean;

  @Field(() => Boolean, { description: 'Whether it is meant to be signed.' })
  esignable: boolean;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => String, {
    description: 'GET this path (with the same credentials) for the PDF; 410 once the session has expired.',
  })
  downloadUrl: string;
}

@ObjectType('MoveInReview', {
  simpleResolvers: true,
  description: 'A priced move-in, kept as a session for 24 hours; nothing else is saved.',
})
export class MoveInReviewObject {
  @Field(() => UUIDScalar)
  sessionId: string;

  @Field(() => DateTimeScalar, { description: 'When the session and its documents stop answering (410).' })
  expiresAt: string;

  @Field(() => UUIDScalar)
  unitId: string;

  @Field(() => UUIDScalar, { nullable: true })
  tenantId: string | null;

  @Field(() => LocalDateScalar)
  moveInDate: string;

  @Field(() => MoveInCostObject)
  cost: MoveInCostObject;

  @Field(() => [SessionDocumentObject])
  documents: SessionDocumentObject[];
}

/** The review as GraphQL answers it: instants in the facility's zone, money in currency units. */
export function moveInReviewView(review: MoveInReview, timeZone: string): MoveInReviewObject {
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
