import type { Facility } from './facilities.types';
import type { GraphqlContext } from '../../graphql/context';

/**
 * The facility of a record already checked to be the caller's (through the facilities loader,
 * cached for the request), for its time zone or to navigate to it.
 */
export async function facilityOf(
  ctx: GraphqlContext,
  record: { id: string; facilityId: string },
  what: string,
): Promise<Facility> {
  const facility = await ctx.loaders.facilities.load(record.facilityId);
  if (!facility) throw new Error(`facility ${record.facilityId} of ${what} ${record.id} is missing`);
  return facility;
}
