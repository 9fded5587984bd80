import type { EntityReferences } from '../../graphql/federation';
import type { GraphqlContext } from '../../graphql/context';
import { present, presentEvent, type EventView } from './event-document.contract';

/** An event by id in its facility's time zone, as a facility's `event(id:)` answers it; null for another company's. */
async function eventView(id: string, { loaders }: GraphqlContext): Promise<EventView | null> {
  const event = await loaders.events.load(id);
  const facility = event && (await loaders.facilities.load(event.facilityId));
  return event && facility ? presentEvent(event, facility.timeZone) : null;
}

/** Federation entities: an event and a document by id (a document checked through its event). */
export const DOCUMENTS_ENTITIES = {
  Event: eventView,
  Document: async (id, context) => {
    const document = await context.loaders.documents.load(id);
    const event = document && (await eventView(document.eventId, context));
    return document && event ? { ...present(document, event.timeZone), event } : null;
  },
} satisfies EntityReferences;
