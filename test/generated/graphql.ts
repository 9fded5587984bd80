/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A field whose value exists in the standard IANA Time Zone Database: https://www.iana.org/time-zones */
  TimeZone: { input: string; output: string; }
  /** A field whose value is a generic Universally Unique Identifier: https://en.wikipedia.org/wiki/Universally_unique_identifier. */
  UUID: { input: string; output: string; }
};

export type FacilityQueryVariables = Exact<{
  id: string;
}>;


export type FacilityQuery = { facility: { id: string, name: string, timeZone: string, company: { id: string, name: string } } | null };

export type FacilityFlippersQueryVariables = Exact<{
  id: string;
  name: string;
}>;


export type FacilityFlippersQuery = { facility: { id: string, flippers: Array<string>, flipper: boolean } | null };

export type CompanyFacilitiesQueryVariables = Exact<{
  id: string;
}>;


export type CompanyFacilitiesQuery = { company: { id: string, name: string, facilities: Array<{ id: string, name: string, timeZone: string }> } | null };
