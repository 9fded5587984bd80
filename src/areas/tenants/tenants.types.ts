/** A tenant of a facility (the contract shows only ids; these are the fields the store keeps). */
export interface Tenant {
  id: string;
  facilityId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
}

/** A rentable unit of a facility. */
export interface Unit {
  id: string;
  facilityId: string;
  name: string;
  /** Monthly rate in currency units. */
  rate: number;
  /** The same rate in cents, for sums. */
  rateCents: number;
}
