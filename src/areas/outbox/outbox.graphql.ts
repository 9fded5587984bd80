import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { OutboxDocument, OutboxMessage } from './outbox.types';
import { formatInstant } from '../../kernel/time';
import { PageType } from '../../graphql/pagination';
import { ConnectionType, EdgeType } from '../../graphql/connection';
import { Cost } from '../../graphql/cost-directives';
import { DateTimeScalar, UUIDScalar } from '../../graphql/scalars';

/** Delivery states in GraphQL's spelling; the values are the stored ones. */
export const OutboxStatusEnum = {
  PENDING: 'pending',
  SENDING: 'sending',
  SENT: 'sent',
  FAILED: 'failed',
} as const;

registerEnumType(OutboxStatusEnum, {
  name: 'OutboxStatus',
  description: 'Where a message is in its delivery.',
  valuesConfig: {
    PENDING: { description: 'Waiting for its (next) attempt, or for a transport to be configured.' },
    SENDING: { description: 'Claimed by a worker that is sending it now.' },
    SENT: { description: 'Accepted by the SMTP server or the SMS provider.' },
    FAILED: { description: 'Every attempt failed; lastError says why.' },
  },
});

export const OutboxChannelEnum = { EMAIL: 'email', SMS: 'sms' } as const;

registerEnumType(OutboxChannelEnum, { name: 'OutboxChannel', description: 'How a message is delivered.' });

/** An outbox message as GraphQL answers it: the record, instants in the facility's zone, what it says. */
export interface OutboxMessageView extends Omit<OutboxMessage, 'nextAttemptAt'> {
  /** Pending messages only. */
  nextAttemptAt: string | null;
  subject: string | null;
  documents: OutboxDocument[];
}

export function outboxMessageView(message: OutboxMessage, timeZone: string): OutboxMessageView {
  const waiting = message.status === 'pending';
  return {
    ...message,
    nextAttemptAt: waiting ? formatInstant(message.nextAttemptAt, timeZone) : null,
    createdAt: formatInstant(message.createdAt, timeZone),
    sentAt: message.sentAt ? formatInstant(message.sentAt, timeZone) : null,
    subject: message.channel === 'email' ? (message.content?.subject ?? null) : null,
    documents: message.content?.documents ?? [],
  };
}

@ObjectType('OutboxDocument', { simpleResolvers: true, description: 'A document a message offers.' })
export class OutboxDocumentObject {
  @Field(() => UUIDScalar)
  id: string;

  @Field(() => String)
  description: string;

  @Field(() => String, {
    description:
      'Its REST download path (API credentials needed; the SMS provider receives it). The message ' +
      'itself carries one signing link to all its documents.',
  })
  url: string;
}

@ObjectType('OutboxMessage', {
  simpleResolvers: true,
  description: 'A message in the durable outbox (e-sign delivery) and its delivery state.',
})
export class OutboxMessageObject {
  @Field(() => UUIDScalar, {
    description: 'Also the Message-ID (email) or idempotency key (SMS) it goes out with.',
  })
  id: string;

  @Field(() => UUIDScalar, { nullable: true })
  eventId: string | null;

  @Field(() => OutboxChannelEnum)
  channel: string;

  @Field(() => String, { description: 'Email address, or phone number in E.164 form.' })
  recipient: string;

  @Field(() => OutboxStatusEnum)
  status: string;

  @Field(() => Int, { description: 'Delivery attempts started so far.' })
  attempts: number;

  @Field(() => DateTimeScalar, { nullable: true, description: 'When a pending message is tried next.' })
  nextAttemptAt: string | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed; null once sent.' })
  lastError: string | null;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => DateTimeScalar, { nullable: true })
  sentAt: string | null;

  @Field(() => String, { nullable: true, description: 'The subject line (email only).' })
  subject: string | null;

  @Field(() => [OutboxDocumentObject])
  documents: OutboxDocumentObject[];
}

@ObjectType('OutboxMessagePage', { simpleResolvers: true, description: 'A page of outbox messages.' })
export class OutboxMessagePageObject extends PageType(OutboxMessageObject, 'messages') {}

@ObjectType('SendEsignableDocumentsPayload', {
  simpleResolvers: true,
  description: 'What sendEsignableDocuments queued.',
})
export class SendEsignableDocumentsPayload {
  @Field(() => UUIDScalar, { description: 'The event whose esignable documents were sent.' })
  eventId: string;

  // A send names exactly one recipient (email or smsNumber).
  @Field(() => [OutboxMessageObject], { description: 'One message per recipient, pending delivery.' })
  @Cost({ assumedSize: 1 })
  messages: OutboxMessageView[];
}

@ObjectType('OutboxMessageEdge', { simpleResolvers: true, description: 'An outbox message and its cursor.' })
export class OutboxMessageEdgeObject extends EdgeType(OutboxMessageObject) {}

@ObjectType('OutboxMessageConnection', {
  simpleResolvers: true,
  description: "A slice of a facility's outbox messages, walked by cursor.",
})
export class OutboxMessageConnectionObject extends ConnectionType(OutboxMessageEdgeObject, 'messages') {}
