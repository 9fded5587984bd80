import type { DocumentsService } from '../documents/documents.service';
import { DomainError, problem } from '../errors';
import type { Facility } from '../facilities/facilities.types';
import type { OutboxService } from '../outbox/outbox.service';
import type { NewOutboxMessage, OutboxMessage } from '../outbox/outbox.types';
import { documentUrl, esignEmailContent, esignSmsContent } from './esign.content';
import { readRecipient } from './esign.recipients';

/** Send the event's esignable documents to exactly one of an email address and an SMS number. */
export interface SendEsignableDocumentsCommand {
  eventId: string;
  email?: string | null;
  smsNumber?: string | null;
}

export interface EsignOptions {
  /** Where the service is reached from outside; document links in messages start with it. */
  publicBaseUrl: string;
}

/** E-sign delivery (contract 4.9): the event's esignable documents, by email or SMS, through the outbox. */
export class EsignService {
  constructor(
    private readonly documents: DocumentsService,
    private readonly outbox: OutboxService,
    private readonly options: EsignOptions,
  ) {}

  /**
   * Queues one message per recipient (exactly one of email and sms_number) offering the event's
   * esignable documents. Checks, in order: the event (404/9), the recipient (400/5 both, 400/4
   * neither or malformed), then that the event has esignable documents (400/3). The outbox row is
   * the request's record; nothing is written unless every check passes.
   */
  async sendEsignableDocuments(
    facility: Facility,
    command: SendEsignableDocumentsCommand,
  ): Promise<OutboxMessage[]> {
    const event = await this.documents.eventFor(facility, command.eventId);
    const recipient = readRecipient(command);
    const [documents] = await this.documents.documentsByEventIds([event.id]);
    const esignable = documents.filter((d) => d.esignable);
    if (esignable.length === 0) {
      throw new DomainError('action_failed', `event ${event.id} has no esignable documents`, {
        problems: [problem(['eventId'], 'has no esignable documents')],
      });
    }
    const links = esignable.map((d) => ({
      id: d.id,
      description: d.description,
      url: documentUrl(this.options.publicBaseUrl, facility.id, d.id),
    }));
    const owner = { id: facility.id, name: facility.name };
    const message: NewOutboxMessage =
      recipient.channel === 'email'
        ? {
            channel: 'email',
            recipient: recipient.address,
            content: esignEmailContent(owner, event.id, links),
          }
        : { channel: 'sms', recipient: recipient.number, content: esignSmsContent(owner, event.id, links) };
    return this.outbox.enqueue(facility, event.id, [message]);
  }
}
