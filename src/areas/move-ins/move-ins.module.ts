import { areaModule } from '../../area-module';
import { MOVE_INS_EVENTS } from './move-ins.events';
import { MoveInsResolver, DocumentDownloadsResolver } from './move-ins.resolver';
import { MOVE_INS_ROUTES } from './move-ins.routes';
import * as MoveInReview from './move-in-review.contract';
import { moveInsTables } from './move-ins.tables';

/** The move-ins area, as the kits take it (see AreaModule). */
export const moveInsModule = areaModule({
  name: 'move-ins',
  routes: MOVE_INS_ROUTES,
  resolvers: [MoveInsResolver, DocumentDownloadsResolver],
  schemas: [MoveInReview.schema],
  tables: moveInsTables,
  events: MOVE_INS_EVENTS,
});
