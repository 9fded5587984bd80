export interface Facility {
  id: string;
  companyId: string;
  name: string;
  /** IANA zone; "today" at the facility is this zone's date. */
  timeZone: string;
  tenantPaymentsDisabled: boolean;
}

export interface Company {
  id: string;
  name: string;
}
