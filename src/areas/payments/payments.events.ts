import { declareEvents, domainEvent, type DomainEvent } from '../../kernel/domain-events';
import type { Facility } from '../facilities/facilities.types';
import * as PaymentEventContract from './payment-event.contract';
import type { PaymentsEventBuilders } from './payments.ports';
import type { PaymentEvent } from './payments.types';

/** The events the payments area reports (docs/webhooks.md). */
export const PAYMENTS_EVENTS = declareEvents([
  { type: 'payment.succeeded', audience: 'webhooks', summary: 'a retail payment commits (REST or GraphQL)' },
]);

/** The payments' events, each's `data` the payment as the REST contract answers it, with its facility and tenant. */
export const paymentsEvents: PaymentsEventBuilders = {
  paymentSucceeded(facility: Facility, payment: PaymentEvent): DomainEvent {
    return domainEvent('payment.succeeded', facility.id, payment.id, payment.paidAt, {
      facility_id: facility.id,
      tenant_id: payment.tenantId,
      ...PaymentEventContract.toContract(payment, facility.timeZone),
    });
  },
};
