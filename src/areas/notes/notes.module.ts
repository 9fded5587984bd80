import { areaModule } from '../../area-module';
import { NOTES_EVENTS } from './notes.events';
import { LedgerNotesResolver, NotesResolver, TenantNotesResolver, UnitNotesResolver } from './notes.resolver';
import { NOTES_ROUTES } from './notes.routes';
import * as NoteEvent from './note-event.contract';
import { notesLoaders } from './notes.loaders';
import { notesTables } from './notes.tables';
import { NOTES_ENTITIES } from './notes.entities';

/** The notes area, as the kits take it (see AreaModule). */
export const notesModule = areaModule({
  name: 'notes',
  routes: NOTES_ROUTES,
  resolvers: [NotesResolver, LedgerNotesResolver, TenantNotesResolver, UnitNotesResolver],
  schemas: [NoteEvent.schema],
  loaders: notesLoaders,
  entities: NOTES_ENTITIES,
  tables: notesTables,
  events: NOTES_EVENTS,
});
