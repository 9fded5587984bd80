import { areaModule } from '../../area-module';
import { LiveResolver } from './live.resolver';

/** The live area, as the kits take it (see AreaModule). */
export const liveModule = areaModule({
  name: 'live',
  resolvers: [LiveResolver],
});
