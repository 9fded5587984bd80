import { areaModule } from '../../area-module';
import { FlippersResolver } from './flippers.resolver';
import { FLIPPER_ROUTES } from './flippers.routes';
import { flippersTables } from './flippers.tables';
import { FLIPPERS_KEPT } from './flippers.kept';
import { planFlippers } from './flippers.plan';

/** The flippers area, as the kits take it (see AreaModule). */
export const flippersModule = areaModule({
  name: 'flippers',
  routes: FLIPPER_ROUTES,
  resolvers: [FlippersResolver],
  tables: flippersTables,
  kept: { flippers: FLIPPERS_KEPT },
  datasetPlan: planFlippers,
});
