import { Type } from '@sinclair/typebox';
import { insuranceTerms, serviceTerms } from './ledgers.tables';
import type { LedgerCharge } from './ledgers.types';
import { cases, type ViewOf } from '../../contract/cases';
import { Day, Money, Nullable, TextFields, Uuid } from '../../contract/kit';
import type { Columns } from '../../kernel/columns';
import { centsToAmount } from '../../kernel/money';

/**
 * A charge on a ledger as the contract (2.4) writes it: an insurance object and a service object
 * differ only in the terms of their `data`, the columns their terms are stored in, in that order.
 */
function chargeContract<Terms extends Columns>($id: string, terms: Terms) {
  const schema = Type.Object(
    {
      id: Uuid(),
      effective_date: Day(),
      cancel_date: Nullable(Day()),
      data: TextFields(Object.keys(terms) as Array<keyof Terms & string>),
      amount: Money(),
    },
    { $id },
  );
  const chargeCases = cases(schema);
  /** The charge as both transports show it: its amount in currency units. */
  type View = ViewOf<typeof schema>;
  const present = (charge: LedgerCharge<View['data']>): View => ({
    id: charge.id,
    effectiveDate: charge.effectiveDate,
    cancelDate: charge.cancelDate,
    data: charge.data,
    amount: centsToAmount(charge.amountCents),
  });
  const toContract = (charge: LedgerCharge<View['data']>) => chargeCases.toContract(present(charge));
  return { schema, present, toContract };
}

/** Contract 2.4 insurance object. */
export const LedgerInsurance = chargeContract('LedgerInsurance', insuranceTerms);

/** Contract 2.4 service object. */
export const LedgerService = chargeContract('LedgerService', serviceTerms);

export type LedgerInsuranceView = ReturnType<typeof LedgerInsurance.present>;

export type LedgerServiceView = ReturnType<typeof LedgerService.present>;
