import { areaModule } from '../../area-module';
import { ESIGN_EVENTS } from './esign.events';
import { EsignResolver } from './esign.resolver';
import {
  DocumentEsignResolver,
  DocumentEsignListsResolver,
  EventEsignResolver,
  OutboxMessageEsignResolver,
  EsignLinksResolver,
} from './esign-status.resolver';
import { ESIGN_ROUTES } from './esign.routes';
import { esignLoaders } from './esign.loaders';
import { esignTables } from './esign.tables';

/** The esign area, as the kits take it (see AreaModule). */
export const esignModule = areaModule({
  name: 'esign',
  routes: ESIGN_ROUTES,
  resolvers: [
    EsignResolver,
    DocumentEsignResolver,
    DocumentEsignListsResolver,
    EventEsignResolver,
    OutboxMessageEsignResolver,
    EsignLinksResolver,
  ],
  loaders: esignLoaders,
  tables: esignTables,
  events: ESIGN_EVENTS,
});
