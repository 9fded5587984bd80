'use strict';
/**
 * The store's floor: the cold pages of `npm run bench` answered by the built service's own domain
 * services and store (dist/), each read from the database on every request, under a bare Fastify
 * route with nothing else around it: no authentication, no request id, no revision check, no page
 * cache, no logging, no metrics, no hooks; the envelope's meta is the pagination alone, written
 * as the service writes its answers (writeParts). What a
 * cold page costs here is what reading it costs the service, so its rate against the bare route of
 * the same size is the most any change outside the read could bring that row to (`npm run bench --
 * --floor`).
 *
 * Serves the service's own paths: GET /v1/:facility_id/invoiceable_items,
 * /v1/companies/:company_id/rate_change_updates and
 * /v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts. A facility is read from the
 * store once and kept. Its one argument is the DATABASE_URL; it prints `{"address": ...}` when ready.
 */
const { Buffer } = require('node:buffer');
const path = require('node:path');
const Fastify = require('fastify');

const DIST = path.join(__dirname, '..', 'dist');
const load = (file) => require(path.join(DIST, file));

const { openStore } = load('store/database.js');
const { systemClock } = load('kernel/clock.js');
const { parsePageRequest } = load('kernel/pagination.js');
const { writeParts } = load('rest/envelope.js');
const { SqlFacilitiesRepository } = load('areas/facilities/facilities.repository.js');
const { FacilitiesService } = load('areas/facilities/facilities.service.js');
const { SqlRateChangesRepository } = load('areas/rate-changes/rate-changes.repository.js');
const { RateChangesService } = load('areas/rate-changes/rate-changes.service.js');
const { SqlInvoiceableItemsRepository } = load('areas/invoiceable-items/invoiceable-items.repository.js');
const { InvoiceableItemsService, ITEM_PAGE_LIMITS } = load(
  'areas/invoiceable-items/invoiceable-items.service.js',
);
const { SqlLedgersRepository } = load('areas/ledgers/ledgers.repository.js');
const { LedgersService } = load('areas/ledgers/ledgers.service.js');
const { chargesFragment } = load('areas/ledgers/ledgers.routes.js');

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers 200 with `parts` as the service writes an answer (writeParts: one system call, a large
 * page not copied into one buffer first).
 */
function send(reply, parts) {
  const length = parts.reduce((total, part) => total + part.length, 0);
  reply.hijack();
  writeParts(reply.raw, { 'content-type': JSON_TYPE, 'content-length': length }, parts, length, false);
}

/** `{"<key>":[<listings>],"meta":{"pagination":...}}` in parts. */
const listingParts = (key, listings, pagination) => [
  Buffer.from(`{"${key}":[`),
  listings,
  Buffer.from(`],"meta":${JSON.stringify({ pagination })}}`),
];

async function main() {
  const url = process.argv[2];
  if (!url) throw new Error('usage: floor-server.js <DATABASE_URL>');
  const store = openStore(url);
  const { db, arrays, bytes } = store;
  const facilities = new FacilitiesService(new SqlFacilitiesRepository(db), systemClock);
  const rateChanges = new RateChangesService(new SqlRateChangesRepository(db, arrays, bytes), systemClock);
  const items = new InvoiceableItemsService(
    new SqlInvoiceableItemsRepository(db, arrays, bytes),
    systemClock,
  );
  const ledgers = new LedgersService(new SqlLedgersRepository(db, arrays), systemClock);

  const kept = new Map();
  const facilityOf = async (id) => {
    if (!kept.has(id)) {
      const [facility] = await facilities.facilitiesByIds([id]);
      if (!facility) throw new Error(`no facility ${id}`);
      kept.set(id, facility);
    }
    return kept.get(id);
  };

  const app = Fastify({ logger: false });
  app.get('/v1/:facility_id/invoiceable_items', async (request, reply) => {
    const facility = await facilityOf(request.params.facility_id);
    const asked = parsePageRequest(
      { page: request.query.page, perPage: request.query.per_page },
      ITEM_PAGE_LIMITS,
    );
    const { listings, pagination } = await items.listingPage(facility, 'all', asked);
    send(reply, listingParts('invoiceable_items', listings, pagination));
  });
  app.get('/v1/companies/:company_id/rate_change_updates', async (request, reply) => {
    const { updated_after, updated_before, created_by, page, per_page } = request.query;
    const query = rateChanges.readQuery(
      { id: request.params.company_id },
      {
        updatedAfter: updated_after,
        updatedBefore: updated_before,
        createdBy: created_by,
        page,
        perPage: per_page,
      },
    );
    const { listings, pagination } = await rateChanges.listingPage(query);
    send(reply, listingParts('rate_change_updates', listings, pagination));
  });
  app.get('/v1/:facility_id/ledgers/:ledger_id/insurance_services_and_discounts', async (request, reply) => {
    const facility = await facilityOf(request.params.facility_id);
    const result = await ledgers.insuranceServicesAndDiscounts(facility, request.params.ledger_id);
    send(reply, [Buffer.from('{'), chargesFragment(result), Buffer.from(',"meta":{}}')]);
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ address })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
