import { areaModule } from '../../area-module';
import {
  FacilityLedgersResolver,
  LedgersResolver,
  EventLedgerResolver,
  TenantLedgersResolver,
  UnitLedgersResolver,
} from './ledgers.resolver';
import { LEDGERS_ROUTES } from './ledgers.routes';
import { LedgerInsurance, LedgerService } from './ledger-charges.contract';
import * as LedgerDiscount from './ledger-discount.contract';
import { ledgersLoaders } from './ledgers.loaders';
import { ledgersTables } from './ledgers.tables';
import { LEDGERS_KEPT } from './ledgers.kept';
import { LEDGERS_ENTITIES } from './ledgers.entities';
import { planLedgers } from './ledgers.plan';

/** The ledgers area, as the kits take it (see AreaModule). */
export const ledgersModule = areaModule({
  name: 'ledgers',
  routes: LEDGERS_ROUTES,
  resolvers: [
    FacilityLedgersResolver,
    LedgersResolver,
    EventLedgerResolver,
    TenantLedgersResolver,
    UnitLedgersResolver,
  ],
  schemas: [LedgerInsurance.schema, LedgerService.schema, LedgerDiscount.schema],
  loaders: ledgersLoaders,
  entities: LEDGERS_ENTITIES,
  tables: ledgersTables,
  kept: { ledgers: LEDGERS_KEPT },
  datasetPlan: planLedgers,
});
