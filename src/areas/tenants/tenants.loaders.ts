import type { LoaderTools } from '../../graphql/loaders';
import type { TenantsService } from './tenants.service';

/** The services these loaders read. */
interface LoaderServices {
  readonly tenants: TenantsService;
}

/** Tenants and units by id. */
export function tenantsLoaders({ tenants }: LoaderServices, { byIds }: LoaderTools) {
  return {
    tenants: byIds('tenants', (ids) => tenants.tenantsByIds(ids)),
    units: byIds('units', (ids) => tenants.unitsByIds(ids)),
  };
}

declare module '../../graphql/loaders' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders above, in the request's
  interface Loaders extends ReturnType<typeof tenantsLoaders> {}
}
