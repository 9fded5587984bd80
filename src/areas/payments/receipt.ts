import { CARD_TYPE_NAMES, type CardType } from './cards';
import type { PaymentEvent } from './payments.types';

function money(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Item text goes into a template: braces must not become placeholders, lines must stay lines. */
function plain(text: string): string {
  return text.replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
}

/** How the receipt names the method: brand and last four at most, never more of a number. */
function paidBy(event: PaymentEvent, detail: string | null): string {
  const method = event.paymentMethod;
  switch (method.kind) {
    case 'credit_card':
    case 'card_swipe': {
      const brand = CARD_TYPE_NAMES[method.cardType as CardType] ?? 'Card';
      return `${brand} ending ${method.last4 ?? '????'}`;
    }
    case 'ach':
      return `Bank account ending ${method.last4 ?? '????'}`;
    case 'cash':
      return 'Cash';
    case 'check':
      return detail ? `Check no. ${detail}` : 'Check';
    case 'money_order':
      return detail ? `Money order ${detail}` : 'Money order';
  }
}

/**
 * The receipt document's template: each line, the total and how it was paid. The PDF rendering
 * fills in {{tenant_name}}, {{facility_name}} and {{date}}.
 */
export function receiptTemplate(
  event: PaymentEvent,
  tender: { tenderedCents: number | null; detail: string | null },
): string {
  const lines = event.lines.map(
    (line) =>
      `${line.quantity} x ${plain(line.description)} @ ${money(line.unitTotalCents)} = ${money(line.lineTotalCents)}`,
  );
  const text = [
    'RECEIPT',
    '',
    '{{facility_name}}',
    'Date: {{date}}',
    'Customer: {{tenant_name}}',
    '',
    ...lines,
    '',
    `Total: ${money(event.amountCents)}`,
    `Paid by: ${paidBy(event, tender.detail)}`,
  ];
  if (tender.tenderedCents !== null) {
    text.push(`Tendered: ${money(tender.tenderedCents)}`, `Change due: ${money(event.changeDueCents)}`);
  }
  text.push('', 'Thank you for your purchase.');
  return text.join('\n');
}
