import { createUnionType, Field, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';
import {
  DocumentObject,
  EventObject,
  type DocumentView,
  type EventView,
} from '../documents/documents.graphql';
import { NoteEventObject, type NoteEventView } from '../notes/notes.graphql';
import { OutboxMessageObject, type OutboxMessageView } from '../outbox/outbox.graphql';
import { SuccessfulPaymentEventObject, type PaymentObjectView } from '../payments/payments.graphql';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

/** The events a facility's activity carries, in GraphQL's spelling; the values are the webhooks' types. */
export const FacilityActivityTypeEnum = {
  PAYMENT_SUCCEEDED: 'payment.succeeded',
  NOTE_CREATED: 'note.created',
  MOVE_IN_REVIEWED: 'move_in.reviewed',
  ESIGN_SENT: 'esign.sent',
  ESIGN_DELIVERED: 'esign.delivered',
  ESIGN_FAILED: 'esign.failed',
  DOCUMENT_VIEWED: 'document.viewed',
  DOCUMENT_SIGNED: 'document.signed',
} as const;

export type FacilityActivityType = (typeof FacilityActivityTypeEnum)[keyof typeof FacilityActivityTypeEnum];

registerEnumType(FacilityActivityTypeEnum, {
  name: 'FacilityActivityType',
  description:
    'What happened at a facility: the same events webhooks carry (payment.succeeded is PAYMENT_SUCCEEDED).',
});

@InterfaceType('LiveEvent', {
  description: 'An event a subscription delivers, after the change it reports was committed.',
})
export abstract class LiveEventObject {
  @Field(() => String, {
    description:
      'Where this event stands in the journal: resume after it with `since` (graphql-ws) or `Last-Event-ID` (SSE).',
  })
  cursor: string;

  @Field(() => FacilityActivityTypeEnum)
  type: FacilityActivityType;

  @Field(() => DateTimeScalar, { description: 'When it happened (UTC).' })
  occurredAt: string;

  @Field(() => UUIDScalar)
  facilityId: string;

  @Field(() => String, {
    description: "The webhook's `data` as JSON text: the resource as the REST contract shows it.",
  })
  data: string;
}

@ObjectType('PaymentSucceeded', { implements: LiveEventObject, simpleResolvers: true })
export class PaymentSucceededObject extends LiveEventObject {
  @Field(() => SuccessfulPaymentEventObject, {
    nullable: true,
    description: 'The payment, as payRetail answers it.',
  })
  payment: PaymentObjectView | null;
}

@ObjectType('NoteCreated', { implements: LiveEventObject, simpleResolvers: true })
export class NoteCreatedObject extends LiveEventObject {
  @Field(() => NoteEventObject, { nullable: true, description: 'The note event, as createNote answers it.' })
  noteEvent: NoteEventView | null;
}

@ObjectType('MoveInReviewed', {
  implements: LiveEventObject,
  simpleResolvers: true,
  description: 'A move-in was priced; the review itself is in `data` (nothing else is saved).',
})
export class MoveInReviewedObject extends LiveEventObject {}

@ObjectType('EsignMessageChanged', {
  implements: LiveEventObject,
  simpleResolvers: true,
  description:
    'An e-sign message was sent, delivered, or given up on (ESIGN_SENT, ESIGN_DELIVERED, ESIGN_FAILED).',
})
export class EsignMessageChangedObject extends LiveEventObject {
  @Field(() => OutboxMessageObject, { nullable: true, description: 'The message as it is now.' })
  message: OutboxMessageView | null;

  @Field(() => EventObject, { nullable: true, description: 'The event whose documents it offers.' })
  event: EventView | null;
}

@ObjectType('DocumentChanged', {
  implements: LiveEventObject,
  simpleResolvers: true,
  description: 'A document was viewed or signed through its e-sign link (DOCUMENT_VIEWED, DOCUMENT_SIGNED).',
})
export class DocumentChangedObject extends LiveEventObject {
  @Field(() => DocumentObject, { nullable: true, description: 'The document, with its e-sign state.' })
  document: DocumentView | null;
}

export const FacilityActivityUnion = createUnionType({
  name: 'FacilityActivity',
  description: "One event of a facility's activity.",
  types: () =>
    [
      PaymentSucceededObject,
      NoteCreatedObject,
      MoveInReviewedObject,
      EsignMessageChangedObject,
      DocumentChangedObject,
    ] as const,
});

@ObjectType('EsignStatusUpdate', {
  simpleResolvers: true,
  description: "An event's e-sign state: first as it is when subscribing, then after each change.",
})
export class EsignStatusUpdateObject {
  @Field(() => String, {
    nullable: true,
    description:
      'The cursor of the change that caused this update; null for the first (the state at subscription).',
  })
  cursor: string | null;

  @Field(() => FacilityActivityTypeEnum, { nullable: true, description: 'What changed; null for the first.' })
  cause: FacilityActivityType | null;

  @Field(() => EventObject, { description: "The event, with `esignState` and its documents' `esign`." })
  event: EventView;
}
