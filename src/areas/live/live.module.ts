import { areaModule } from '../../area-module';
import { writeLiveEvents } from './live-events.writer';
import { LiveResolver } from './live.resolver';

/** The live area, as the kits take it (see AreaModule). */
export const liveModule = areaModule({
  name: 'live',
  resolvers: [LiveResolver],
  // The live journal: every event, for GraphQL subscriptions.
  listeners: [{ hears: 'every', listen: writeLiveEvents }],
});
