#!/usr/bin/env node
/**
 * Trims a dataset written by `facility-ops seed --out` to a small one (one company, two of its
 * facilities, twelve tenants each with what hangs off them), for an upgrade fixture that an
 * earlier release's own `import` loads (test/fixtures/upgrade, docs/operations.md#upgrades):
 *
 *   node scripts/upgrade-fixture.js trim <seed.json> <small.json>
 */
const fs = require('node:fs');

function trim(d) {
  const comp = d.companies[0].id;
  const facs = d.facilities.filter((f) => f.company_id === comp).slice(0, 2);
  const fids = new Set(facs.map((f) => f.id));
  const flippers = d.flippers.map((f) => ({
    ...f,
    ...(f.company_ids ? { company_ids: f.company_ids.filter((c) => c === comp) } : {}),
    ...(f.facility_ids ? { facility_ids: f.facility_ids.filter((c) => fids.has(c)) } : {}),
  }));
  const per = new Map();
  const tenants = d.tenants.filter((t) => {
    if (!fids.has(t.facility_id)) return false;
    const n = per.get(t.facility_id) ?? 0;
    per.set(t.facility_id, n + 1);
    return n < 12;
  });
  const tids = new Set(tenants.map((t) => t.id));
  const ledgers = d.ledgers.filter((l) => tids.has(l.tenant_id));
  const lids = new Set(ledgers.map((l) => l.id));
  const rateChanges = d.rate_changes.filter((r) => tids.has(r.tenant_id));
  const uids = new Set([...ledgers.map((l) => l.unit_id), ...rateChanges.map((r) => r.unit_id)]);
  const events = d.events
    .filter((e) => fids.has(e.facility_id) && (e.ledger_id === null || lids.has(e.ledger_id)))
    .slice(0, 8);
  const eids = new Set(events.map((e) => e.id));
  return {
    version: 1,
    companies: [d.companies[0]],
    facilities: facs,
    flippers,
    tenants,
    units: d.units.filter((u) => uids.has(u.id)),
    ledgers,
    ledger_insurances: d.ledger_insurances.filter((x) => lids.has(x.ledger_id)),
    ledger_services: d.ledger_services.filter((x) => lids.has(x.ledger_id)),
    ledger_discounts: d.ledger_discounts.filter((x) => lids.has(x.ledger_id)),
    rate_applied_actions: d.rate_applied_actions
      .filter((a) => fids.has(a.facility_id) && lids.has(a.new_ledger_id) && uids.has(a.unit_id))
      .map((a) => ({ ...a, old_ledger_id: lids.has(a.old_ledger_id) ? a.old_ledger_id : a.new_ledger_id }))
      .slice(0, 20),
    events,
    event_documents: d.event_documents.filter((x) => eids.has(x.event_id)).slice(0, 24),
    invoiceable_items: d.invoiceable_items.filter((i) => fids.has(i.facility_id)),
    payment_methods: d.payment_methods.filter((p) => tids.has(p.tenant_id)),
    rate_changes: rateChanges,
  };
}

if (require.main === module) {
  const [command, input, output] = process.argv.slice(2);
  if (command !== 'trim' || !output) {
    console.error('usage: node scripts/upgrade-fixture.js trim <seed.json> <small.json>');
    process.exit(2);
  }
  fs.writeFileSync(output, JSON.stringify(trim(JSON.parse(fs.readFileSync(input, 'utf8')))));
  console.log(`trimmed ${input} to ${output}`);
}

module.exports = { trim };
