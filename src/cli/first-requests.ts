import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { Store } from '../store/database';
import type { DemoCompany } from '../store/seed/demo-data';
import { demoIds, type DemoIds } from '../store/seed/demo-ids';

/** The file `start` writes, beside the SQLite database file (or in the working directory). */
export function firstRequestsPath(config: Config): string {
  const sqlite = /^sqlite:(.+)$/.exec(config.databaseUrl);
  const dir = sqlite && sqlite[1] !== ':memory:' ? path.dirname(path.resolve(sqlite[1])) : process.cwd();
  return path.join(dir, 'first-requests.md');
}

const AUTH = '-H "Authorization: Bearer $TOKEN"';
const JSON_TYPE = "-H 'Content-Type: application/json'";

function get(url: string, extra = ''): string {
  return `curl -s ${AUTH}${extra} "$BASE${url}"`;
}

function post(url: string, body: unknown, extra = ''): string {
  return `curl -s ${AUTH} ${JSON_TYPE}${extra} -d '${JSON.stringify(body)}' "$BASE${url}"`;
}

/**
 * A Markdown page of ready-to-paste curl commands, one for every /v1 endpoint and a GraphQL query,
 * naming real demo records. It holds no secret: the commands read $BASE and $TOKEN.
 */
export function firstRequestsText(url: string, ids: DemoIds, today: string): string {
  const f = `/v1/${ids.facilityId}`;
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const window = new URLSearchParams({
    updated_after: `${day(-3 * 365)}T00:00:00+00:00`,
    updated_before: `${day(1)}T00:00:00+00:00`,
    per_page: '5',
  });
  const completed = ids.completedOn ?? today;
  const graphql = {
    query:
      'query ($id: UUID!) { facility(id: $id) { name timeZone flippers ' +
      'invoiceableItems(list: RETAIL, perPage: 3) { entries { description total } pagination { totalEntries } } } }',
    variables: { id: ids.facilityId },
  };
  const block = (...lines: string[]) => ['```sh', ...lines, '```', ''];
  return [
    '# First requests',
    '',
    'Written by `facility-ops start` with real ids of the demo data. Every command reads `$BASE` and',
    '`$TOKEN`; set them first (the bearer token is printed on the first start, or make one with',
    '`npx facility-ops clients create --help`):',
    '',
    ...block(`export BASE=${url} TOKEN=<bearer token>`),
    '## Flippers',
    '',
    ...block(get(`${f}/flippers`), get(`${f}/flippers/esign_documents`)),
    '## Rate applied actions',
    '',
    ...block(get(`${f}/rate_applied_actions?start_date=${completed}&end_date=${completed}`)),
    '## A ledger: insurance, services and discounts',
    '',
    ...block(get(`${f}/ledgers/${ids.ledgerId}/insurance_services_and_discounts`)),
    '## Notes',
    '',
    ...block(
      post(`${f}/notes`, {
        note: { note_text: 'Gate code changed', tenant_id: ids.tenantId, ledger_id: ids.ledgerId },
        user_id: '7',
      }),
    ),
    '## Documents of a move-in event, one as a PDF, and e-sign delivery',
    '',
    ...block(
      get(`${f}/events/${ids.eventId}/documents`),
      get(`${f}/documents/${ids.documentId}`, ' -o lease.pdf'),
      post(`${f}/documents/${ids.eventId}/send_esignable_documents`, { email: 'tenant@example.com' }),
    ),
    '## Move-in review',
    '',
    'The answer holds `move_in.session_id` and, per document, `session_document_id`; a session',
    'document downloads while the session lives (24 hours). The second line reviews again, sets `$S`',
    'and `$D` from its answer (with node, which runs this service) and writes the first document to',
    '`review.pdf` (`-f`: nothing is written if the download is refused).',
    '',
    ...block(
      post(`${f}/move_ins/review_cost`, { move_in: { unit_id: ids.unitId, tenant_id: ids.tenantId } }),
      `R=$(${post(`${f}/move_ins/review_cost`, { move_in: { unit_id: ids.unitId, tenant_id: ids.tenantId } })}) && ` +
        `S=$(node -pe 'JSON.parse(process.argv[1]).move_in.session_id' "$R") && ` +
        `D=$(node -pe 'JSON.parse(process.argv[1]).move_in.documents[0].session_document_id' "$R") && ` +
        `curl -sf ${AUTH} "$BASE${f}/documents/$D/session/$S" -o review.pdf`,
    ),
    '## Invoiceable items',
    '',
    ...block(
      get(`${f}/invoiceable_items?per_page=5`),
      get(`${f}/invoiceable_items/insurance`),
      get(`${f}/invoiceable_items/services`),
      get(`${f}/invoiceable_items/retail`),
      get(`${f}/invoiceable_items/rental_center`),
      get(`${f}/invoiceable_items/fees`),
    ),
    '## Retail payment',
    '',
    'A test card (the built-in test gateway approves it). The Idempotency-Key makes a retry charge once.',
    '',
    ...block(
      post(
        `${f}/invoiceable_items/retail_payment`,
        {
          retail_payment: { invoiceable_items: [{ invoiceable_item_id: ids.retailItemId, quantity: 1 }] },
          payment_method: {
            kind: 'credit_card',
            first_name: 'Ada',
            last_name: 'Lovelace',
            card_number: '4242424242424242',
            card_type: 'visa',
            security_code: '123',
            expiration_date: `12/${String((Number(today.slice(2, 4)) + 3) % 100).padStart(2, '0')}`,
            billing_address_attributes: { address1: '1 Main St', city: 'Springfield', postal: '62701' },
          },
        },
        ' -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)"',
      ),
    ),
    '## Rate change updates of the company',
    '',
    ...block(get(`/v1/companies/${ids.companyId}/rate_change_updates?${window.toString()}`)),
    '## GraphQL',
    '',
    'The same domain at `/graphql` (open it in a browser for GraphiQL):',
    '',
    ...block(`curl -s ${AUTH} ${JSON_TYPE} -d '${JSON.stringify(graphql)}' "$BASE/graphql"`),
  ].join('\n');
}

/** Writes the first-requests file when the demo data is there; answers its path, or null. */
export async function writeFirstRequests(
  store: Store,
  config: Config,
  company: DemoCompany,
  url: string,
  today: string,
): Promise<string | null> {
  const ids = await demoIds(store, company);
  if (!ids) return null;
  const file = firstRequestsPath(config);
  try {
    fs.writeFileSync(file, firstRequestsText(url, ids, today));
  } catch {
    return null; // a read-only directory: the banner's two curl lines still show the way
  }
  return file;
}
