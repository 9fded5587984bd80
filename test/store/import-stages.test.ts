import { randomUUID } from 'node:crypto';
import { checkFile } from '../../src/store/dataset/import.check';
import { planWrites } from '../../src/store/dataset/import.plan';
import { DATASET_PLANS } from '../../src/modules';
import { resolveReferences } from '../../src/store/dataset/import.references';
import { DatasetError, importDataset } from '../../src/store/dataset/dataset.import';
import type { Dataset } from '../../src/store/dataset/dataset.types';
import {
  buildCompany,
  buildFacility,
  buildLedger,
  buildRateChange,
  buildTenant,
  buildUnit,
} from '../support/factories';
import { createTestStore, describeEachDialect, type TestStore } from '../support/harness';

/** A company, its facility, two tenants and units, their ledgers and rate changes. */
function file(): Dataset {
  const company = buildCompany();
  const facility = buildFacility({ company_id: company.id });
  const tenants = [0, 1].map((n) => buildTenant({ facility_id: facility.id, first_name: `T${n}` }));
  const units = [0, 1].map((n) => buildUnit({ facility_id: facility.id, name: `U-${n}` }));
  return {
    version: 1,
    companies: [company],
    facilities: [facility],
    tenants,
    units,
    ledgers: tenants.map((tenant, n) =>
      buildLedger({ facility_id: facility.id, tenant_id: tenant.id, unit_id: units[n].id }),
    ),
    rate_changes: tenants.map((tenant, n) =>
      buildRateChange({ facility_id: facility.id, tenant_id: tenant.id, unit_id: units[n].id }),
    ),
  };
}

describe('stage 1: the file on its own', () => {
  it('reports schema problems and the rules within the file together, and sets aside records of the wrong shape', () => {
    const data = file();
    (data.units![0] as unknown as Record<string, unknown>).rate = 'twelve';
    data.units![1].rate = 9.999;
    data.tenants!.push({ ...data.tenants![0] });
    const checked = checkFile(data);
    expect(checked.fatal).toBe(false);
    expect(checked.problems).toEqual([
      'units[0].rate: must be number',
      `tenants[2]: duplicate id ${data.tenants![0].id}`,
      'units[1].rate: 9.999 has more than two decimal places',
    ]);
    expect([...checked.rejected.get('units')!]).toEqual([0]);
  });

  it('stops at a file that is not an object, or a list that is not a list', () => {
    expect(checkFile([])).toMatchObject({ fatal: true, problems: ['(file): must be object'] });
    expect(checkFile({ version: 1, tenants: {} })).toMatchObject({
      fatal: true,
      problems: ['tenants: must be array'],
    });
  });
});

describe('stage 3: the writes, table by table, reading nothing', () => {
  it('plans an upsert per table in dependency order, and counts the rows', () => {
    const data = file();
    const checked = checkFile(data);
    const plan = planWrites(
      DATASET_PLANS,
      checked.data,
      {
        known: {
          facility: new Map(),
          company: new Set(),
          tenant: new Map(),
          unit: new Map(),
          ledger: new Map(),
          event: new Map(),
        },
        problems: [],
        stored: null,
      },
      '2026-11-24T00:00:00.000Z',
    );
    const upserts = plan.steps.flatMap((step) =>
      step.kind === 'upsert' && step.rows.length ? [step.table] : [],
    );
    expect(upserts).toEqual(['companies', 'facilities', 'tenants', 'units', 'ledgers', 'rate_changes']);
    expect(plan.counts).toMatchObject({
      companies: 1,
      facilities: 1,
      tenants: 2,
      units: 2,
      ledgers: 2,
      rate_changes: 2,
    });
  });

  it('keeps stored rate changes in step with a renamed facility, tenant and unit', () => {
    const data = file();
    const facility = data.facilities![0];
    const tenant = data.tenants![0];
    const unit = data.units![0];
    const stored = {
      facilities: new Map([
        [
          facility.id,
          { name: 'Old name', company_id: facility.company_id, time_zone: facility.time_zone ?? 'UTC' },
        ],
      ]),
      tenants: new Map([[tenant.id, 'Old Tenant']]),
      units: new Map([
        [unit.id, 'Old unit'],
        [data.units![1].id, data.units![1].name],
      ]),
    };
    const plan = planWrites(
      DATASET_PLANS,
      data,
      {
        known: {
          facility: new Map(),
          company: new Set(),
          tenant: new Map(),
          unit: new Map(),
          ledger: new Map(),
          event: new Map(),
        },
        problems: [],
        stored,
      },
      '2026-11-24T00:00:00.000Z',
    );
    const statements = plan.steps.filter((step) => step.kind === 'statement');
    const tenantName = `${tenant.first_name} ${tenant.last_name}`;
    expect(statements).toEqual([
      expect.objectContaining({ params: [[facility.name.toLowerCase(), facility.company_id, facility.id]] }),
      expect.objectContaining({ params: [[tenantName.toLowerCase(), tenantName, tenant.id]] }),
      // Only the unit whose stored name differs.
      expect.objectContaining({ params: [[unit.name, unit.id]] }),
    ]);
    // Then their listings, made from the names just written.
    const rewrites = plan.steps.filter((step) => step.kind === 'rewrite');
    expect(
      rewrites.map((step) => [step.select.slice(step.select.lastIndexOf('where')), step.params]),
    ).toEqual([
      ['where rc.facility_id = ?', [[facility.id]]],
      ['where rc.tenant_id = ?', [[tenant.id]]],
      ['where rc.unit_id = ?', [[unit.id]]],
    ]);
  });

  it('rewrites the listings of a facility moved to another zone, and nothing else', () => {
    const data = file();
    const facility = data.facilities![0];
    const stored = {
      facilities: new Map([
        [facility.id, { name: facility.name, company_id: facility.company_id, time_zone: 'Asia/Tokyo' }],
      ]),
      tenants: new Map(data.tenants!.map((t) => [t.id, `${t.first_name} ${t.last_name}`])),
      units: new Map(data.units!.map((u) => [u.id, u.name])),
    };
    const known = {
      facility: new Map(),
      company: new Set<string>(),
      tenant: new Map(),
      unit: new Map(),
      ledger: new Map(),
      event: new Map(),
    };
    const plan = planWrites(DATASET_PLANS, data, { known, problems: [], stored }, '2026-11-24T00:00:00.000Z');
    const rewrites = plan.steps.filter((step) => step.kind === 'rewrite');
    expect(rewrites).toHaveLength(1);
    expect(rewrites[0]).toMatchObject({ column: 'listing', params: [[facility.id]] });
    // Its name and company stand: the rows' sort keys and company are not written.
    expect(plan.steps.filter((step) => step.kind === 'statement')).toEqual([]);

    // Moved to another company alone, the rows follow it, and no listing (which shows no company) is rewritten.
    const otherCompany = randomUUID();
    stored.facilities.set(facility.id, {
      name: facility.name,
      company_id: otherCompany,
      time_zone: facility.time_zone ?? 'UTC',
    });
    const moved = planWrites(
      DATASET_PLANS,
      data,
      { known, problems: [], stored },
      '2026-11-24T00:00:00.000Z',
    );
    expect(moved.steps.filter((step) => step.kind === 'rewrite')).toEqual([]);
    expect(moved.steps.filter((step) => step.kind === 'statement')).toEqual([
      expect.objectContaining({ params: [[facility.name.toLowerCase(), facility.company_id, facility.id]] }),
    ]);
  });
});

describeEachDialect('stage 2 and the whole import: every problem once, in one pass', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await createTestStore(dialect);
  });
  afterAll(() => t.close());

  it('resolves what the file names in the file and the database', async () => {
    const data = file();
    await importDataset(t.store, DATASET_PLANS, {
      version: 1,
      companies: data.companies,
      facilities: data.facilities,
    });
    const later = { version: 1 as const, tenants: data.tenants };
    const resolved = await resolveReferences(t.store, checkFile(later));
    expect(resolved.problems).toEqual([]);
    expect(resolved.known.facility.get(data.facilities![0].id)).toMatchObject({
      name: data.facilities![0].name,
    });
  });

  it('reports one line for an unknown facility, not one per record that leans on it', async () => {
    const data = file();
    const typo = randomUUID();
    data.tenants![0] = { ...data.tenants![0], facility_id: typo };
    const resolved = await resolveReferences(t.store, checkFile(data));
    // The ledger and rate change of that tenant name the right facility: they add nothing.
    expect(resolved.problems).toEqual([`tenants[0].facility_id: no facility ${typo}`]);
  });

  it('reports a record whose own facility is missing once, not once per relation', async () => {
    const data = file();
    const missing = randomUUID();
    data.ledgers![1] = { ...data.ledgers![1], facility_id: missing };
    const resolved = await resolveReferences(t.store, checkFile(data));
    expect(resolved.problems).toEqual([`ledgers[1].facility_id: no facility ${missing}`]);
  });

  it('reports the schema problems and the reference problems of one file together, and writes nothing', async () => {
    const data = file();
    const missing = randomUUID();
    (data.units![0] as unknown as Record<string, unknown>).rate = 'twelve';
    data.rate_changes![1] = { ...data.rate_changes![1], unit_id: missing };
    const error = await importDataset(t.store, DATASET_PLANS, data).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatasetError);
    // units[0] is set aside whole: its ledger and rate change do not repeat it.
    expect((error as DatasetError).problems).toEqual([
      'units[0].rate: must be number',
      `rate_changes[1].unit_id: no unit ${missing}`,
    ]);
    const tenants = await t.store.db
      .selectFrom('tenants')
      .select('id')
      .where('facility_id', '=', data.facilities![0].id)
      .execute();
    expect(tenants).toEqual([]);
  });
});
