import { Type, type Static } from '@sinclair/typebox';
import { insuranceTerms, serviceTerms, type LedgerCharge } from './ledgers.types';
import { Day, Money, Nullable, TextFields, Uuid } from '../../contract/kit';
import { SnakeCaseKeys } from '../../kernel/names';

/**
 * A charge on a ledger as the contract (2.4) writes it: an insurance object and a service object
 * differ only in the terms of their `data`, named in snake_case in the domain's order.
 */
function chargeContract<Term extends string>($id: string, termNames: readonly Term[]) {
  const terms = new SnakeCaseKeys(termNames);
  const schema = Type.Object(
    {
      id: Uuid(),
      effective_date: Day(),
      cancel_date: Nullable(Day()),
      data: TextFields(terms.keys),
      amount: Money(),
    },
    { $id },
  );
  type Contract = Static<typeof schema>;
  const toContract = (charge: LedgerCharge<Record<Term, string>>): Contract => ({
    id: charge.id,
    effective_date: charge.effectiveDate,
    cancel_date: charge.cancelDate,
    data: terms.toSnakeCase(charge.data),
    amount: charge.amount,
  });
  return { schema, toContract };
}

/** Contract 2.4 insurance object. */
export const LedgerInsurance = chargeContract('LedgerInsurance', insuranceTerms);

/** Contract 2.4 service object. */
export const LedgerService = chargeContract('LedgerService', serviceTerms);
