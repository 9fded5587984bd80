import { areaModule } from '../../area-module';
import { PAYMENTS_EVENTS } from './payments.events';
import { PaymentsResolver, EventPaymentResolver } from './payments.resolver';
import { PAYMENT_ROUTES } from './payments.routes';
import * as PaymentEvent from './payment-event.contract';
import { paymentsTables } from './payments.tables';
import { planPaymentMethods } from './payments.plan';

/** The payments area, as the kits take it (see AreaModule). */
export const paymentsModule = areaModule({
  name: 'payments',
  routes: PAYMENT_ROUTES,
  resolvers: [PaymentsResolver, EventPaymentResolver],
  schemas: [PaymentEvent.schema],
  tables: paymentsTables,
  events: PAYMENTS_EVENTS,
  datasetPlan: planPaymentMethods,
});
