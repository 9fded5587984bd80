import { Type, type Static } from '@sinclair/typebox';
import type { MoveInReview } from './move-ins.types';
import { centsToAmount } from '../../kernel/money';
import { formatInstant } from '../../kernel/time';
import { Day, Instant, Money, Nullable, Text, Uuid } from '../../contract/kit';

/** The review answer (DESIGN 6, Move-in review): instants in the facility's zone, money in units. */
export const schema = Type.Object(
  {
    session_id: Uuid(),
    expires_at: Instant(),
    unit_id: Uuid(),
    tenant_id: Nullable(Uuid()),
    move_in_date: Day(),
    cost: Type.Object({
      rent: Money(),
      fees: Type.Array(Type.Object({ id: Uuid(), description: Text(), amount: Money() })),
      total: Money(),
    }),
    documents: Type.Array(
      Type.Object({
        session_document_id: Uuid(),
        description: Text(),
        type: Text(),
        is_relevant: Type.Boolean(),
        created_at: Instant(),
      }),
    ),
  },
  { $id: 'MoveInReview' },
);

export function toContract({ session, documents }: MoveInReview, timeZone: string): Static<typeof schema> {
  return {
    session_id: session.id,
    expires_at: formatInstant(session.expiresAt, timeZone),
    unit_id: session.unitId,
    tenant_id: session.tenantId,
    move_in_date: session.moveInDate,
    cost: {
      rent: centsToAmount(session.cost.rentCents),
      fees: session.cost.fees.map((fee) => ({
        id: fee.id,
        description: fee.description,
        amount: centsToAmount(fee.amountCents),
      })),
      total: centsToAmount(session.cost.totalCents),
    },
    documents: documents.map((document) => ({
      session_document_id: document.id,
      description: document.description,
      type: document.type,
      is_relevant: document.isRelevant,
      created_at: formatInstant(document.createdAt, timeZone),
    })),
  };
}
