import { areaModule } from '../../area-module';

/** The events area, as the kits take it: its service alone, which the resolvers of other areas read. */
export const eventsModule = areaModule({
  name: 'events',
});
