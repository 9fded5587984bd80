import DataLoader from 'dataloader';
import type { Caller } from '../kernel/caller';
import type { Company, Facility } from '../areas/facilities/facilities.types';
import type { FacilitiesService } from '../areas/facilities/facilities.service';
import {
  createRecordLoaders,
  traceBatches,
  type RecordLoaders,
  type RecordLoaderServices,
} from './record-loaders';

/**
 * Per-request DataLoaders: one batch (one SQL statement) per tick for each kind of record, cached
 * for the request only. Each answers null for a record outside the caller's company, so navigation
 * between records never leaves it. Areas add their loaders here, over their `...ByIds` methods.
 */
export interface Loaders extends RecordLoaders {
  facilities: DataLoader<string, Facility | null>;
  companies: DataLoader<string, Company | null>;
}

/** The services the loaders read, by their `...ByIds` methods. */
export interface LoaderServices extends RecordLoaderServices {
  readonly facilities: FacilitiesService;
}

/** Keeps a batch's key order and nulls, dropping records of other companies. */
export function ownedBy<T>(companyId: string, companyOf: (record: T) => string) {
  return (records: (T | null)[]): (T | null)[] =>
    records.map((record) => (record !== null && companyOf(record) === companyId ? record : null));
}

export function createLoaders(services: LoaderServices, caller: Caller): Loaders {
  const ownFacility = ownedBy<Facility>(caller.companyId, (facility) => facility.companyId);
  const ownCompany = ownedBy<Company>(caller.companyId, (company) => company.id);
  const facilities = new DataLoader<string, Facility | null>(
    traceBatches('facilities', async (ids) => ownFacility(await services.facilities.facilitiesByIds(ids))),
  );
  return {
    facilities,
    companies: new DataLoader(
      traceBatches('companies', async (ids) => ownCompany(await services.facilities.companiesByIds(ids))),
    ),
    ...createRecordLoaders(services, facilities),
  };
}
