/**
 * The move-in documents every review prepares. Facilities have no move-in templates of their own
 * in the store, so these built-in ones serve all of them; placeholders are filled at review time.
 */
export interface MoveInTemplate {
  description: string;
  type: string;
  isRelevant: boolean;
  esignable: boolean;
  body: string;
}

export const MOVE_IN_TEMPLATES: readonly MoveInTemplate[] = [
  {
    description: 'Rental agreement',
    type: 'PrintTemplate',
    isRelevant: true,
    esignable: true,
    body: `This rental agreement is made on {{date}} between {{facility_name}} ("the Facility") and {{tenant_name}} ("the Tenant") for storage unit {{unit_name}}.

1. Term. The rental begins on {{move_in_date}} and continues from month to month until either party ends it by written notice of at least ten days.

2. Rent. The monthly rent for unit {{unit_name}} is {{rent}}, due in advance on the first day of each rental period.

3. Charges due at move-in:
    {{move_in_charges}}
Total due at move-in: {{total}}

4. Use. The unit is for the storage of personal property only. The Tenant may not live in the unit, store hazardous, flammable or perishable goods, or run a business from it.

5. Access and lock. The Tenant keeps the unit locked with a lock of their own and has access during the Facility's posted hours.

6. Liability. The Facility is not a bailee or warehouse of the stored goods. The Tenant insures them or accepts the risk of their loss.

Tenant: {{tenant_name}}                Unit: {{unit_name}}                Date: {{date}}

Signature: ____________________________________`,
  },
  {
    description: 'Rules and regulations addendum',
    type: 'PrintTemplate',
    isRelevant: true,
    esignable: true,
    body: `This addendum forms part of the rental agreement of {{date}} between {{facility_name}} and {{tenant_name}} for unit {{unit_name}}.

1. Gate codes are personal and may not be shared.

2. Vehicles may stand in the loading areas only while loading or unloading.

3. Waste and unwanted goods must be taken away, not left in or near the unit.

4. The Tenant reports any damage to the unit or the building to the office at once.

5. The Facility may change these rules with thirty days' written notice.

Acknowledged by {{tenant_name}} on {{date}}.

Signature: ____________________________________`,
  },
];

/** A session document's kind and relevance: those of the built-in template it was made from. */
export function templateKind(description: string): { type: string; isRelevant: boolean } {
  const template = MOVE_IN_TEMPLATES.find((t) => t.description === description);
  return { type: template?.type ?? 'PrintTemplate', isRelevant: template?.isRelevant ?? true };
}
