import { declareEvents, domainEvent, type DomainEvent, type EventData } from '../../kernel/domain-events';
import { formatInstant } from '../../kernel/time';
import type { Facility } from '../facilities/facilities.types';
import * as EventDocumentContract from './event-document.contract';
import type { DocumentEventBuilders } from './documents.ports';
import type { DocumentHappening, DocumentSigningContext, EventDocument } from './documents.types';

/** The events the documents area reports (docs/webhooks.md). */
export const DOCUMENTS_EVENTS = declareEvents([
  {
    type: 'document.viewed',
    audience: 'webhooks',
    summary: 'a signing link is opened the first time (one per document it offers)',
  },
  {
    type: 'document.signed',
    audience: 'webhooks',
    summary: 'documents are signed through their link (one per document)',
  },
]);

/** An event document as events carry it: as REST lists it, with its facility's and event's ids. */
export function documentPayload(document: EventDocument, facility: Facility): EventData {
  return {
    facility_id: facility.id,
    event_id: document.eventId,
    ...EventDocumentContract.toContract(document, facility.timeZone),
  };
}

/**
 * The documents' events: one per document that happened through an e-sign link, `document.viewed`
 * or `document.signed`, each with the link it came through.
 */
export function documentsEvents(lookups: {
  documentsByEventIds(eventIds: readonly string[]): Promise<EventDocument[][]>;
}): DocumentEventBuilders {
  return {
    async aboutDocuments(
      facility: Facility,
      link: DocumentSigningContext,
      happenings: readonly DocumentHappening[],
    ): Promise<DomainEvent[]> {
      if (happenings.length === 0) return [];
      const [documents] = await lookups.documentsByEventIds([link.eventId]);
      const byId = new Map(documents.map((document) => [document.id, document]));
      const events: DomainEvent[] = [];
      const local = (at: string) => formatInstant(at, facility.timeZone);
      for (const happening of happenings) {
        const document = byId.get(happening.documentId);
        if (!document) continue;
        const esign: EventData = {
          message_id: link.messageId,
          channel: link.channel,
          recipient: link.recipient,
          ...(happening.kind === 'viewed'
            ? { viewed_at: local(happening.at) }
            : {
                signed_at: local(happening.at),
                signer_name: happening.signerName,
                signed_sha256: happening.signedSha256,
              }),
        };
        events.push(
          domainEvent(`document.${happening.kind}`, facility.id, link.eventId, happening.at, {
            ...documentPayload(document, facility),
            esign,
          }),
        );
      }
      return events;
    },
  };
}
