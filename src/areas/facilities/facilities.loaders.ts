import DataLoader from 'dataloader';
import { ownedBy, traceBatches, type LoaderTools } from '../../graphql/loaders';
import type { Path } from '../../kernel/errors';
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
  /** The facilities a field named, each read and checked once for the request (by id, parameter and freshness). */
  const named = new Map<string, Promise<Facility>>();
  const ownFacility = ownedBy<Facility>(caller.companyId, (facility) => facility.companyId);
  const ownCompany = ownedBy<Company>(caller.companyId, (company) => company.id);
  return {
    facilities: new DataLoader<string, Facility | null>(
      traceBatches('facilities', async (ids) => ownFacility(await services.facilities.facilitiesByIds(ids))),
    ),
    /**
     * The facility a field names by id, the caller's: read and checked once however many fields
     * name it, or refused as FacilitiesService.facilityFor refuses (NOT_FOUND, FORBIDDEN), the
     * error naming `parameter`. A refusal is not remembered: each field that names the facility
     * is refused on its own. `fresh` reads the facility itself, not the few seconds' copy (for
     * answers that are themselves kept).
     */
    facility(
      id: string,
      parameter: Path = ['facilityId'],
      options: { fresh?: boolean } = {},
    ): Promise<Facility> {
      const key = `${options.fresh === true} ${parameter.join('.')} ${id}`;
      let found = named.get(key);
      if (found === undefined) {
        found = services.facilities.facilityFor(caller, id, parameter, options);
        named.set(key, found);
        found.catch(() => named.delete(key));
      }
      return found;
    },
    companies: new DataLoader<string, Company | null>(
      traceBatches('companies', async (ids) => ownCompany(await services.facilities.companiesByIds(ids))),
    ),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof facilitiesLoaders> {}
}
