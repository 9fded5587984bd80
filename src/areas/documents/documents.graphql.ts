import { Field, ObjectType, registerEnumType } from 'type-graphql';
import type { EventType } from './documents.types';
import { present, presentEvent, type DocumentView, type EventView } from './event-document.contract';
import { PageType } from '../../graphql/pagination';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

/** Event types in GraphQL's spelling; the values are the stored ones. */
export const EventTypeEnum = {
  MOVE_IN_UNIT_EVENT: 'move_in_unit_event',
  MOVE_OUT_UNIT_EVENT: 'move_out_unit_event',
  SUCCESSFUL_PAYMENT_EVENT: 'successful_payment_event',
} as const;

/** An event and a document as GraphQL shows them (the contract's views), which other areas' fields return. */
export type { DocumentView, EventView };

registerEnumType(EventTypeEnum, {
  name: 'EventType',
  description: 'The events that own documents.',
});

@ObjectType('Event', {
  simpleResolvers: true,
  description: 'A move-in, move-out or successful payment event of a facility; it owns documents.',
})
export class EventObject implements Omit<EventView, 'facilityId' | 'timeZone'> {
  /** An event as this type answers it, instants in its facility's zone (the contract's `presentEvent`). */
  static readonly present = presentEvent;

  @Field(() => UUIDScalar)
  id: string;

  @Field(() => EventTypeEnum)
  type: EventType;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => UUIDScalar, { nullable: true, description: 'The ledger the event concerns, if any.' })
  ledgerId: string | null;
}

@ObjectType('Document', {
  simpleResolvers: true,
  description: 'A PDF document of an event (REST 2.6), downloadable at GET /v1/:facility_id/documents/:id.',
})
export class DocumentObject implements Omit<DocumentView, 'eventId' | 'timeZone'> {
  /** A document as this type answers it, instants in its facility's zone (the contract's `present`). */
  static readonly present = present;

  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  description: string;

  @Field(() => String, { description: 'The template kind, such as PrintTemplate.' })
  type: string;

  @Field(() => Boolean)
  isRelevant: boolean;

  @Field(() => Boolean, { description: 'Whether it is sent for e-signature.' })
  esignable: boolean;

  @Field(() => DateTimeScalar)
  createdAt: string;
}

@ObjectType('EventPage', { simpleResolvers: true, description: 'A page of events.' })
export class EventPageObject extends PageType(EventObject, 'events') {}

@ObjectType('DocumentPage', { simpleResolvers: true, description: 'A page of documents.' })
export class DocumentPageObject extends PageType(DocumentObject, 'documents') {}

@ObjectType('DocumentEdge', { simpleResolvers: true, description: 'A document and its cursor.' })
export class DocumentEdgeObject extends EdgeType(DocumentObject) {}

@ObjectType('DocumentConnection', {
  simpleResolvers: true,
  description: "A slice of an event's documents, walked by cursor.",
})
export class DocumentConnectionObject extends ConnectionType(DocumentEdgeObject, 'documents') {}

@ObjectType('EventEdge', { simpleResolvers: true, description: 'An event and its cursor.' })
export class EventEdgeObject extends EdgeType(EventObject) {}

@ObjectType('EventConnection', {
  simpleResolvers: true,
  description: "A slice of a facility's events, walked by cursor.",
})
export class EventConnectionObject extends ConnectionType(EventEdgeObject, 'events') {}
