import type { EntityReferences } from '../../graphql/federation';
import { present } from './note-event.contract';

/** Federation entities: a note event (notes written together) by id, null for another company's. */
export const NOTES_ENTITIES = {
  NoteEvent: async (id, { loaders }) => {
    const event = await loaders.noteEvents.load(id);
    const facility = event && (await loaders.facilities.load(event.facilityId));
    return event && facility ? present(event, facility.timeZone) : null;
  },
} satisfies EntityReferences;
