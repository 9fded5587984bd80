import { areaModule } from '../../area-module';
import { OutboxResolver } from './outbox.resolver';

/** The outbox area, as the kits take it (see AreaModule). */
export const outboxModule = areaModule({
  name: 'outbox',
  resolvers: [OutboxResolver],
});
