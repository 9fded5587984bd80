import { CompaniesResolver, FacilitiesResolver } from './facilities.resolver';
import { FlippersResolver } from './flippers.resolver';

/**
 * Every resolver class of the schema. An area adds its `<area>.resolver.ts` here: field resolvers
 * on `FacilityObject` / `CompanyObject` (or on its own object types), calling only its service.
 */
export const RESOLVERS = [FacilitiesResolver, CompaniesResolver, FlippersResolver] as const;
