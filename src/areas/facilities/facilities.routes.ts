import type { V1Scope } from '../../rest/v1';
import type { FacilitiesService } from './facilities.service';
import type { Company, Facility } from './facilities.types';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The facility a `/v1/:facility_id/...` route acts on, the caller's: set by the facility's
     * scope (FACILITY_SCOPE) before the route's handler runs. Read on no other route.
     */
    facility: Facility;
    /** The company a `/v1/companies/:company_id/...` route acts on, the caller's (COMPANY_SCOPE). */
    company: Company;
  }
}

/** The services the facility's scope reads. */
interface ScopeServices {
  readonly facilities: FacilitiesService;
}

/**
 * The scope of every /v1 route under `/:facility_id`: a preHandler hook (after authentication,
 * the rate limit and the route's validation) that reads the facility the path names, once, and
 * sets `request.facility`, or refuses: 404/9 when there is no such facility, 403/13 when it is
 * another company's (FacilitiesService.facilityFor). A facility remembered as the caller's is set
 * without a promise, so a kept answer needs none.
 */
export const FACILITY_SCOPE: V1Scope<ScopeServices> = {
  param: 'facility_id',
  plugin(scope, services) {
    // A reference-type decoration starts null and is set per request, before the handler.
    scope.decorateRequest('facility', null as unknown as Facility);
    scope.addHook('preHandler', (request, _reply, done) => {
      const caller = request.caller!;
      const id = (request.params as { facility_id: string }).facility_id;
      const known = services.facilities.knownFacility(caller, id);
      if (known !== null) {
        request.facility = known;
        return done();
      }
      services.facilities.facilityFor(caller, id).then((facility) => {
        request.facility = facility;
        done();
      }, done);
    });
  },
  knownNow: (services) => (caller, id) => services.facilities.knownFacility(caller, id),
};

/**
 * The scope of every /v1 route under `/companies/:company_id`: as the facility's, a preHandler
 * that reads the company once and sets `request.company`, or refuses: 404/9 when there is no such
 * company, 403/13 when it is not the caller's (FacilitiesService.companyFor).
 */
export const COMPANY_SCOPE: V1Scope<ScopeServices> = {
  param: 'company_id',
  plugin(scope, services) {
    scope.decorateRequest('company', null as unknown as Company);
    scope.addHook('preHandler', (request, _reply, done) => {
      const id = (request.params as { company_id: string }).company_id;
      services.facilities.companyFor(request.caller!, id).then((company) => {
        request.company = company;
        done();
      }, done);
    });
  },
  knownNow: (services) => (caller, id) => services.facilities.knownCompany(caller, id),
};
