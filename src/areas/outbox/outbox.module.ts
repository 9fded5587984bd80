import { areaModule } from '../../area-module';
import { OUTBOX_EVENTS } from './outbox.events';
import { OutboxResolver } from './outbox.resolver';
import { outboxTables } from './outbox.tables';

/** The outbox area, as the kits take it (see AreaModule). */
export const outboxModule = areaModule({
  name: 'outbox',
  resolvers: [OutboxResolver],
  tables: outboxTables,
  events: OUTBOX_EVENTS,
});
