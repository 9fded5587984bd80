/** Where feature flags are read from. */
export interface FlippersRepository {
  /** Names of the flags enabled globally, for the company or for the facility, sorted by code point. */
  enabledNames(facilityId: string, companyId: string): Promise<string[]>;
  isEnabled(name: string, facilityId: string, companyId: string): Promise<boolean>;
}
