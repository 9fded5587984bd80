import DataLoader from 'dataloader';
import { ownedBy, traceBatches, type LoaderTools } from '../../graphql/loaders';
import type { FacilitiesService } from './facilities.service';
import type { Company, Facility } from './facilities.types';

/** The services these loaders read. */
interface LoaderServices {
  readonly facilities: FacilitiesService;
}

/**
 * The caller's facilities and company, by id (null for another company's): the loader every
 * other record's facility is checked through.
 */
export function facilitiesLoaders(services: LoaderServices, { caller }: LoaderTools) {
  const ownFacility = ownedBy<Facility>(caller.companyId, (facility) => facility.companyId);
  const ownCompany = ownedBy<Company>(caller.companyId, (company) => company.id);
  return {
    facilities: new DataLoader<string, Facility | null>(
      traceBatches('facilities', async (ids) => ownFacility(await services.facilities.facilitiesByIds(ids))),
    ),
    companies: new DataLoader<string, Company | null>(
      traceBatches('companies', async (ids) => ownCompany(await services.facilities.companiesByIds(ids))),
    ),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof facilitiesLoaders> {}
}
