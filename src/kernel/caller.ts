/** The authenticated client application a request acts for. */
export interface Caller {
  readonly clientId: string;
  readonly companyId: string;
  readonly name: string;
}
