import { areaModule } from '../../area-module';
import { DOCUMENTS_EVENTS } from './documents.events';
import { FacilityEventsResolver, EventsResolver, DocumentsResolver } from './documents.resolver';
import { DOCUMENTS_ROUTES } from './documents.routes';
import { DOCUMENT_DOWNLOAD_ROUTES } from './document-downloads.routes';
import * as EventDocument from './event-document.contract';
import { documentsLoaders } from './documents.loaders';
import { documentsTables } from './documents.tables';
import { DOCUMENTS_ENTITIES } from './documents.entities';
import { planEventsAndDocuments } from './documents.plan';

/** The documents area, as the kits take it (see AreaModule). */
export const documentsModule = areaModule({
  name: 'documents',
  routes: [...DOCUMENTS_ROUTES, ...DOCUMENT_DOWNLOAD_ROUTES],
  resolvers: [FacilityEventsResolver, EventsResolver, DocumentsResolver],
  schemas: [EventDocument.schema],
  loaders: documentsLoaders,
  entities: DOCUMENTS_ENTITIES,
  tables: documentsTables,
  events: DOCUMENTS_EVENTS,
  datasetPlan: planEventsAndDocuments,
});
