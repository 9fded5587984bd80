import { areaModule } from '../../area-module';
import { FlippersResolver } from './flippers.resolver';
import { FLIPPER_ROUTES } from './flippers.routes';
import { flippersTables } from './flippers.tables';

/** The flippers area, as the kits take it (see AreaModule). */
export const flippersModule = areaModule({
  name: 'flippers',
  routes: FLIPPER_ROUTES,
  resolvers: [FlippersResolver],
  tables: flippersTables,
});
