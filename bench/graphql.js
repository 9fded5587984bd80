'use strict';
/* global fetch, performance */
/**
 * `node bench/graphql.js` (after `npm run build`): GraphQL against REST for the same data, in one
 * run. Seeds a temporary SQLite database through the service's dataset import, starts the built
 * service (NODE_ENV=production, rate limit off) in a child process, checks that each GraphQL
 * query answers exactly the REST data, then measures both with autocannon (2 s warm-up of each,
 * then rounds of REST followed by GraphQL) and prints a Markdown table (also written to
 * bench/results/graphql.md).
 *
 * The item page is measured twice: its query sent as text, and by its trusted document's id as a front
 * end built with the kit sends it (the document loaded with `facility-ops documents load`). Each row
 * gives the service's CPU time per request (from /proc) beside req/s.
 *
 * Then, on a second company of --deep facilities (1,000,000 rate changes), the same 100 rate changes
 * at depth 100,000 by `page` (page 1001 of 100) and by connection (`first: 100` after the cursor of
 * the 100,000th, found by walking there), page cache off, checked equal.
 *
 * Options: --facilities N (default 20: 20 x 100 tenants x 10 = 20,000 rate changes), --deep N
 * (1000: the deep company's facilities, 0 leaves it out), --duration S (5: seconds of each side in
 * each round), --rounds N (3), --connections N (10), --warm-up S (20: seconds of load over every
 * side of the pairs before the first is measured, 0 for none), --dist DIR (the built service,
 * default dist/), --keep. Unknown options throw.
 */
const { createHash, randomBytes, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { URLSearchParams } = require('node:url');
const { isDeepStrictEqual } = require('node:util');
const {
  ROOT,
  PRODUCTION,
  cannon,
  fmt,
  log,
  median,
  parseOptions,
  startService,
  summarize,
} = require('./common');
const { ACTIONS_DAY, actionsPart, companyParts } = require('./generate');
const { cannonWithCpu, cli, cpuPerRequest } = require('./scenarios');

function parseArgs(argv) {
  return parseOptions(
    argv,
    {
      facilities: 20,
      deep: 1000,
      duration: 5,
      rounds: 3,
      connections: 10,
      'warm-up': 20,
      dist: path.join(ROOT, 'dist'),
      keep: false,
    },
    ['deep', 'warm-up'],
  );
}

async function seed(dist, file, facilities) {
  const { openStore } = require(path.join(dist, 'store/database'));
  const { migrateToLatest } = require(path.join(dist, 'store/migrator'));
  const { importDataset } = require(path.join(dist, 'store/dataset/dataset.import'));
  const { DATASET_PLANS } = require(path.join(dist, 'modules'));
  const store = openStore(`sqlite:${file}`);
  await migrateToLatest(store.db);
  const token = randomBytes(24).toString('base64url');
  const client = {
    consumer_key: randomBytes(12).toString('hex'),
    consumer_secret: randomBytes(24).toString('base64url'),
    bearer_token: token,
  };
  // The same generator as the REST bench: facilities x 100 tenants x 10 rate changes, items on the first.
  const out = {};
  const plan = { seed: 42, name: 'Bench Storage', key: 'bench', facilities, tenants: 100, changes: 10, out };
  for (const part of companyParts(plan)) await importDataset(store, DATASET_PLANS, part);
  await importDataset(store, DATASET_PLANS, actionsPart(out.facilityId, 30));
  const clientId = randomUUID();
  await importDataset(store, DATASET_PLANS, {
    version: 1,
    client_applications: [{ id: clientId, company_id: out.companyId, name: 'bench', ...client }],
  });
  await store.close();
  return {
    companyId: out.companyId,
    facilityId: out.facilityId,
    clientId,
    token,
    rateChanges: facilities * 1000,
  };
}

/**
 * Loads ITEMS_QUERY as a trusted document of the bench's client, as an operator loads a front
 * end's manifest (`facility-ops documents load`); returns its id as the front end sends it.
 */
function loadItemsDocument(dist, file, dir, clientId) {
  const id = createHash('sha256').update(ITEMS_QUERY).digest('hex');
  const manifest = path.join(dir, 'persisted-documents.json');
  fs.writeFileSync(manifest, JSON.stringify({ [id]: ITEMS_QUERY }));
  cli(
    ['documents', 'load', '--client', clientId, manifest],
    { DATABASE_URL: `sqlite:${file}` },
    false,
    path.dirname(dist),
  );
  return `sha256:${id}`;
}

/** A second company of `facilities` x 100 tenants x 10 rate changes, with a client of its own. */
async function seedDeep(dist, file, facilities) {
  const { openStore } = require(path.join(dist, 'store/database'));
  const { importDataset } = require(path.join(dist, 'store/dataset/dataset.import'));
  const { DATASET_PLANS } = require(path.join(dist, 'modules'));
  const store = openStore(`sqlite:${file}`);
  const token = randomBytes(24).toString('base64url');
  const out = {};
  const plan = { seed: 43, name: 'Deep Storage', key: 'deep', facilities, tenants: 100, changes: 10, out };
  for (const part of companyParts(plan)) await importDataset(store, DATASET_PLANS, part);
  await importDataset(store, DATASET_PLANS, {
    version: 1,
    client_applications: [
      {
        id: randomUUID(),
        company_id: out.companyId,
        name: 'deep',
        consumer_key: randomBytes(12).toString('hex'),
        consumer_secret: randomBytes(24).toString('base64url'),
        bearer_token: token,
      },
    ],
  });
  await store.close();
  return { companyId: out.companyId, token, rateChanges: facilities * 1000 };
}

const DEPTH = 100_000;
const DEPTH_SLICE = 100;
const DEPTH_ENTRIES = 'id facilityName tenantName changedAt oldRate newRate';

const DEPTH_PAGE_QUERY = `query BenchDepthPage($id: UUID!, $after: DateTime!, $before: DateTime!, $page: Int!) {
  company(id: $id) {
    rateChangeUpdates(updatedAfter: $after, updatedBefore: $before, page: $page, perPage: ${DEPTH_SLICE}) {
      entries { ${DEPTH_ENTRIES} }
    }
  }
}`;

const DEPTH_CONNECTION_QUERY = `query BenchDepthConnection($id: UUID!, $after: DateTime!, $before: DateTime!, $cursor: String) {
  company(id: $id) {
    rateChangeUpdatesConnection(updatedAfter: $after, updatedBefore: $before, first: ${DEPTH_SLICE}, after: $cursor) {
      edges { cursor node { ${DEPTH_ENTRIES} } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** The service on `file` with the page cache off, as the cold measurements ask it. */
function startColdService(dist, file) {
  return startService(dist, {
    DATABASE_URL: `sqlite:${file}`,
    ...PRODUCTION,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    OUTBOX_WORKER: 'false',
    PAGE_CACHE_MB: '0',
  });
}

/**
 * The deep company's 100 rate changes at depth 100,000 by `page` and by connection, page cache off
 * (a kept page would answer from memory): the connection's cursor is found by walking there, and
 * both answers are checked to hold the same rate changes.
 */
async function measureDepth(dist, file, deep, options) {
  const cold = await startColdService(dist, file);
  try {
    const headers = { authorization: `Bearer ${deep.token}`, 'content-type': 'application/json' };
    const window = { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' };
    const ask = async (query, variables) => {
      const answer = await okJson(
        await fetch(`${cold.address}/graphql`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ query, variables }),
        }),
      );
      if (answer.errors) throw new Error(JSON.stringify(answer.errors).slice(0, 300));
      return answer.data.company;
    };
    log(`walking the connection to depth ${fmt(DEPTH)}`);
    let cursor = null;
    for (let walked = 0; walked < DEPTH; walked += DEPTH_SLICE) {
      const { rateChangeUpdatesConnection } = await ask(DEPTH_CONNECTION_QUERY, {
        id: deep.companyId,
        ...window,
        cursor,
      });
      cursor = rateChangeUpdatesConnection.pageInfo.endCursor;
    }
    const pageVariables = { id: deep.companyId, ...window, page: DEPTH / DEPTH_SLICE + 1 };
    const connectionVariables = { id: deep.companyId, ...window, cursor };
    const byPage = (await ask(DEPTH_PAGE_QUERY, pageVariables)).rateChangeUpdates.entries;
    const byConnection = (await ask(DEPTH_CONNECTION_QUERY, connectionVariables)).rateChangeUpdatesConnection
      .edges;
    if (
      byPage.length !== DEPTH_SLICE ||
      !isDeepStrictEqual(
        byPage,
        byConnection.map((edge) => edge.node),
      )
    )
      throw new Error('depth: the page and the connection differ');
    const sides = {
      page: { query: DEPTH_PAGE_QUERY, variables: pageVariables },
      connection: { query: DEPTH_CONNECTION_QUERY, variables: connectionVariables },
    };
    const request = (kind) => ({
      url: `${cold.address}/graphql`,
      method: 'POST',
      headers,
      body: JSON.stringify(sides[kind]),
    });
    for (const kind of Object.keys(sides))
      await cannon({ ...request(kind), connections: options.connections, duration: 2 });
    const rounds = { page: [], connection: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const kind of Object.keys(sides)) {
        log(`measuring ${kind} (round ${round + 1}/${options.rounds}): depth ${fmt(DEPTH)}`);
        const { connections, duration } = options;
        rounds[kind].push(await cannon({ ...request(kind), connections, duration }));
      }
    }
    const ratio = median(
      rounds.connection.map((result, round) => result.requests.average / rounds.page[round].requests.average),
    );
    return { page: summarize(rounds.page), connection: summarize(rounds.connection), ratio };
  } finally {
    cold.child.kill('SIGTERM');
  }
}

const camelize = (value) => {
  if (Array.isArray(value)) return value.map(camelize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase()),
      camelize(v),
    ]),
  );
};

/** REST 2.7 as the GraphQL query below writes it (enum kinds, "Variable" as a null amount and a flag). */
const restItemAsGraphql = (item) => {
  const camel = camelize(item);
  return {
    ...camel,
    kind: camel.kind.toUpperCase(),
    amount: camel.amount === 'Variable' ? null : camel.amount,
    amountIsVariable: camel.amount === 'Variable',
    invoiceableAmounts: camel.invoiceableAmounts.map((tier) => ({ ...tier, kind: tier.kind.toUpperCase() })),
  };
};

const PAGINATION = 'pagination { currentPage totalPages perPage totalEntries previousPage nextPage }';

const ITEMS_QUERY = `query BenchItems($id: UUID!) {
  facility(id: $id) {
    invoiceableItems {
      entries {
        id productCode kind description requiredAtMoveIn requiredAtTransfer amount amountIsVariable
        shortDescription showInSalesCenter taxTotal total invoiceableAmounts { id amount kind limit }
        ... on InsuranceItem { coverageAmount coveragePercentage providerName providerKey }
        ... on RetailItem { quantity isRentalCenterLock }
      }
      ${PAGINATION}
    }
  }
}`;

const UPDATES_QUERY = `query BenchUpdates($id: UUID!, $after: DateTime!, $before: DateTime!) {
  company(id: $id) {
    rateChangeUpdates(updatedAfter: $after, updatedBefore: $before, perPage: 500) {
      entries {
        id facilityName tenantId tenantName unitId unitName changedAt oldRate newRate effectiveOnDate
      }
      ${PAGINATION}
    }
  }
}`;

const NAVIGATION_QUERY = `query BenchNavigation($id: UUID!, $day: LocalDate!) {
  facility(id: $id) {
    rateAppliedActions(startDate: $day, endDate: $day) {
      rateInfo { appliedRate { name amount } standardRate } source completedOn completedBy employeeId userId
      timeCompleted event oldLedgerId newLedgerId unitId leadId
      newLedger {
        insurance { id effectiveDate cancelDate amount data { description retainType productCode policyNumber
          retainAmount coverageAmount coveragePercentage insuranceProviderKey } }
        services { id effectiveDate cancelDate amount data { description productCode } }
        discounts { id name kind description startDate endDate minOccupancyMonths }
      }
    }
  }
}`;

/**
 * Runs `connections` loops of `operation` for `duration` seconds: operations per second and the
 * latencies of one operation (an operation may be many requests, as a client makes them).
 */
async function drive(operation, { connections, duration }) {
  const end = Date.now() + duration * 1000;
  const latencies = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        await operation();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
  return { rate: latencies.length / duration, p50: at(0.5), p99: at(0.99), failed: 0 };
}

const okJson = async (res) => {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
};

/**
 * The cold navigation (page cache off): the rate applied actions of a day with their new ledgers'
 * insurance, services and discounts, as one GraphQL query and as the REST calls a client makes for
 * the same data (the list, then every ledger at once). Both are checked to hold the same data.
 */
async function measureNavigation(dist, file, world, options) {
  const cold = await startColdService(dist, file);
  try {
    const auth = { authorization: `Bearer ${world.token}` };
    const f = `${cold.address}/v1/${world.facilityId}`;
    const rest = async () => {
      const list = await okJson(
        await fetch(`${f}/rate_applied_actions?start_date=${ACTIONS_DAY}&end_date=${ACTIONS_DAY}`, {
          headers: auth,
        }),
      );
      const ledgers = await Promise.all(
        list.rate_applied_actions.map(async (action) =>
          okJson(
            await fetch(`${f}/ledgers/${action.new_ledger_id}/insurance_services_and_discounts`, {
              headers: auth,
            }),
          ),
        ),
      );
      return { list, ledgers };
    };
    const body = JSON.stringify({
      query: NAVIGATION_QUERY,
      variables: { id: world.facilityId, day: ACTIONS_DAY },
    });
    const graphql = async () => {
      const answer = await okJson(
        await fetch(`${cold.address}/graphql`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        }),
      );
      if (answer.errors) throw new Error(JSON.stringify(answer.errors).slice(0, 300));
      return answer.data;
    };
    const { list, ledgers } = await rest();
    const data = await graphql();
    const fromRest = list.rate_applied_actions.map((action, i) => ({
      ledger: action.new_ledger_id,
      insurance: ledgers[i].insurance?.id ?? null,
      services: ledgers[i].services.map((x) => x.id),
      discounts: ledgers[i].discounts.map((x) => x.id),
    }));
    const fromGraphql = data.facility.rateAppliedActions.map((action) => ({
      ledger: action.newLedgerId,
      insurance: action.newLedger.insurance?.id ?? null,
      services: action.newLedger.services.map((x) => x.id),
      discounts: action.newLedger.discounts.map((x) => x.id),
    }));
    if (fromRest.length === 0 || !isDeepStrictEqual(fromRest, fromGraphql))
      throw new Error('the navigation: GraphQL and REST data differ');
    const sides = { REST: rest, GraphQL: graphql };
    for (const kind of Object.keys(sides))
      await drive(sides[kind], { connections: options.connections, duration: 2 });
    const rounds = { REST: [], GraphQL: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const kind of Object.keys(sides)) {
        log(`measuring ${kind} (round ${round + 1}/${options.rounds}): cold navigation`);
        rounds[kind].push(await drive(sides[kind], options));
      }
    }
    const mid = (results) =>
      [...results].sort((x, y) => x.rate - y.rate)[Math.floor((results.length - 1) / 2)];
    const row = (results) => ({
      ...mid(results),
      rate: results.reduce((sum, r) => sum + r.rate, 0) / results.length,
    });
    return {
      actions: fromRest.length,
      REST: row(rounds.REST),
      GraphQL: row(rounds.GraphQL),
      share: median(rounds.GraphQL.map((r, i) => r.rate / rounds.REST[i].rate)),
    };
  } finally {
    cold.child.kill('SIGTERM');
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(options.dist, 'app.js')))
    throw new Error(`${options.dist} is not built: npm run build`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facility-ops-bench-graphql-'));
  const file = path.join(dir, 'bench.db');
  let service;
  try {
    log(`seeding ${file}: ${options.facilities} facilities`);
    const world = await seed(options.dist, file, options.facilities);
    let deep = null;
    if (options.deep > 0) {
      log(`seeding the deep company: ${options.deep} facilities`);
      const started = Date.now();
      deep = await seedDeep(options.dist, file, options.deep);
      log(`seeded ${fmt(deep.rateChanges)} rate changes in ${fmt((Date.now() - started) / 1000, 0)} s`);
    }
    const itemsDocument = loadItemsDocument(options.dist, file, dir, world.clientId);
    service = await startService(options.dist, {
      DATABASE_URL: `sqlite:${file}`,
      ...PRODUCTION,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      OUTBOX_WORKER: 'false',
    });
    const auth = { authorization: `Bearer ${world.token}` };
    const graphqlHeaders = { ...auth, 'content-type': 'application/json' };
    const window = { after: '2000-01-01T00:00:00Z', before: '2100-01-01T00:00:00Z' };
    const sameItems = (rest, data) => ({
      rest: {
        entries: rest.invoiceable_items.map(restItemAsGraphql),
        pagination: camelize(rest.meta.pagination),
      },
      graphql: data.facility.invoiceableItems,
    });
    const pairs = [
      {
        name: 'invoiceable items (40 items, per_page 100)',
        rest: `${service.address}/v1/${world.facilityId}/invoiceable_items`,
        graphql: { query: ITEMS_QUERY, variables: { id: world.facilityId } },
        same: sameItems,
      },
      {
        name: 'invoiceable items, by trusted document id',
        rest: `${service.address}/v1/${world.facilityId}/invoiceable_items`,
        graphql: { documentId: itemsDocument, variables: { id: world.facilityId } },
        same: sameItems,
      },
      {
        name: `rate change updates (per_page 500 of ${fmt(world.rateChanges)})`,
        rest:
          `${service.address}/v1/companies/${world.companyId}/rate_change_updates?` +
          new URLSearchParams({
            updated_after: window.after,
            updated_before: window.before,
            per_page: '500',
          }),
        graphql: { query: UPDATES_QUERY, variables: { id: world.companyId, ...window } },
        same: (rest, data) => ({
          rest: { entries: camelize(rest.rate_change_updates), pagination: camelize(rest.meta.pagination) },
          graphql: data.company.rateChangeUpdates,
        }),
      },
    ];

    const sidesOf = (pair) => ({
      REST: { url: pair.rest, headers: auth },
      GraphQL: {
        url: `${service.address}/graphql`,
        method: 'POST',
        headers: graphqlHeaders,
        body: JSON.stringify(pair.graphql),
      },
    });
    // A new process keeps getting faster for its first 15 s or so: the pairs are measured after
    // --warm-up seconds of all of them, so the first is not measured on a colder process.
    const warmUps = pairs.flatMap((pair) => Object.values(sidesOf(pair)));
    for (const side of warmUps) {
      if (options['warm-up'] === 0) break;
      log(`warming up: ${side.method ?? 'GET'} ${side.url.slice(service.address.length)}`);
      await cannon({
        ...side,
        connections: options.connections,
        duration: options['warm-up'] / warmUps.length,
      });
    }
    const rows = [];
    for (const pair of pairs) {
      const restRes = await fetch(pair.rest, { headers: auth });
      const restBody = await restRes.text();
      const graphqlRes = await fetch(`${service.address}/graphql`, {
        method: 'POST',
        headers: graphqlHeaders,
        body: JSON.stringify(pair.graphql),
      });
      const graphqlBody = await graphqlRes.text();
      const parsed = JSON.parse(graphqlBody);
      if (restRes.status !== 200 || parsed.errors)
        throw new Error(`${pair.name}: ${restBody.slice(0, 200)} ${graphqlBody.slice(0, 300)}`);
      const { rest, graphql } = pair.same(JSON.parse(restBody), parsed.data);
      if (!isDeepStrictEqual(rest, graphql)) throw new Error(`${pair.name}: GraphQL and REST data differ`);
      // Interleaved rounds, so a change in the machine's load falls on both sides alike.
      const sides = sidesOf(pair);
      const rounds = { REST: [], GraphQL: [] };
      for (const kind of Object.keys(sides))
        await cannon({ ...sides[kind], connections: options.connections, duration: 2 });
      for (let round = 0; round < options.rounds; round++) {
        for (const kind of ['REST', 'GraphQL']) {
          log(`measuring ${kind} (round ${round + 1}/${options.rounds}): ${pair.name}`);
          const { connections, duration } = options;
          rounds[kind].push(
            await cannonWithCpu({ ...sides[kind], connections, duration }, service.child.pid),
          );
        }
      }
      const share = median(
        rounds.GraphQL.map((result, round) => result.requests.average / rounds.REST[round].requests.average),
      );
      rows.push({
        pair,
        restBytes: restBody.length,
        graphqlBytes: graphqlBody.length,
        REST: { ...summarize(rounds.REST), cpu: cpuPerRequest(rounds.REST) },
        GraphQL: { ...summarize(rounds.GraphQL), cpu: cpuPerRequest(rounds.GraphQL) },
        share,
      });
    }

    const navigation = await measureNavigation(options.dist, file, world, options);
    const depth = deep && (await measureDepth(options.dist, file, deep, options));

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const line = (name, bytes, r) =>
      `| ${name} | ${fmt(bytes)} | ${fmt(r.rate, 1)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.failed} | ` +
      `${r.cpu === null ? '' : fmt(r.cpu, 1)} |`;
    const report = [
      '# GraphQL against REST, same data',
      '',
      `${new Date().toISOString().slice(0, 10)}; Node ${process.version}; ${os.cpus().length} x ${cpu}; SQLite (WAL); ` +
        `autocannon on the same machine, ${options.connections} connections; ${options['warm-up']} s of warm-up over every ` +
        'side of the pairs first, then for each pair a 2 s warm-up of each side, ' +
        `then ${options.rounds} round${options.rounds === 1 ? '' : 's'} of ${options.duration} s of REST followed by ` +
        `${options.duration} s of GraphQL. req/s is the mean over the rounds; p50/p99 come from the round whose req/s ` +
        'is the median (the lower middle one if the rounds are even); failed is summed over the rounds; the share ' +
        'is the median of the per-round ratios GraphQL req/s / REST req/s. "CPU µs/req" is the user and system CPU ' +
        "time the service's process spent per request answered (from /proc), the mean over the rounds: the load " +
        'generator shares the machine, so a request that costs the generator more lowers req/s without it. ' +
        'The page by trusted document id is sent as a front end built with the kit sends it ' +
        '(`{"documentId": ...}`, the document loaded with `facility-ops documents load`). ' +
        'NODE_ENV=production, LOG_LEVEL=warn, rate limit off; bearer authentication. Each GraphQL answer was ' +
        'checked equal to the REST data before measuring.',
      '',
      '| request | response bytes | req/s | p50 ms | p99 ms | failed | CPU µs/req |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows.flatMap(({ pair, restBytes, graphqlBytes, REST, GraphQL }) => [
        line(`REST GET ${pair.name}`, restBytes, REST),
        line(`GraphQL POST ${pair.name}`, graphqlBytes, GraphQL),
      ]),
      '',
      '| data | GraphQL req/s as a share of REST |',
      '|---|---:|',
      ...rows.map(({ pair, share }) => `| ${pair.name} | ${fmt(100 * share, 0)}% |`),
      '',
      `Cold navigation (page cache off): the rate applied actions of a day (${navigation.actions}) with their new ` +
        "ledgers' insurance, services and discounts, as one GraphQL query and as the REST calls a client makes " +
        `(the list, then the ${navigation.actions} ledgers at once), each an operation of ${options.connections} ` +
        'concurrent loops in the bench; the same rounds.',
      '',
      '| operation | operations/s | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      `| REST: 1 list + ${navigation.actions} ledger calls | ${fmt(navigation.REST.rate, 1)} | ${fmt(navigation.REST.p50, 1)} | ${fmt(navigation.REST.p99, 1)} |`,
      `| GraphQL: one query | ${fmt(navigation.GraphQL.rate, 1)} | ${fmt(navigation.GraphQL.p50, 1)} | ${fmt(navigation.GraphQL.p99, 1)} |`,
      `| GraphQL as a share of the REST calls | ${fmt(100 * navigation.share, 0)}% | | |`,
      ...(depth
        ? [
            '',
            `Depth (page cache off): the ${DEPTH_SLICE} rate changes after the first ${fmt(DEPTH)} of the ` +
              `${fmt(deep.rateChanges)}-row company's whole history, by \`page\` (page ${fmt(DEPTH / DEPTH_SLICE + 1)} ` +
              `of ${DEPTH_SLICE}) and by connection (\`first: ${DEPTH_SLICE}\` after the cursor of the ` +
              `${fmt(DEPTH)}th), checked equal; the same rounds.`,
            '',
            '| request | req/s | p50 ms | p99 ms | failed |',
            '|---|---:|---:|---:|---:|',
            `| GraphQL rateChangeUpdates(page) | ${fmt(depth.page.rate, 1)} | ${fmt(depth.page.p50, 1)} | ${fmt(depth.page.p99, 1)} | ${depth.page.failed} |`,
            `| GraphQL rateChangeUpdatesConnection(first, after) | ${fmt(depth.connection.rate, 1)} | ${fmt(depth.connection.p50, 1)} | ${fmt(depth.connection.p99, 1)} | ${depth.connection.failed} |`,
            `| connection req/s as a multiple of page | ${fmt(depth.ratio, 1)}x | | | |`,
          ]
        : []),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'graphql.md'), `${report}\n`);
    log('written to bench/results/graphql.md');
  } finally {
    service?.child.kill('SIGTERM');
    if (!options.keep) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

if (require.main === module) {
  main().catch((error) => {
    log(error.stack ?? String(error));
    process.exit(1);
  });
}

module.exports = { ITEMS_QUERY };
