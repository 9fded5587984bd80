import type { TestApp } from './http';
import type { RichWorld } from './rich-world';
import { VISA } from './payments';

/**
 * The /v1 operations as the OpenAPI document lists them, and a request of each that names real
 * records of a rich world and that the operation accepts (the sweep varies one part of it; the
 * OpenAPI test checks what it answers against the document).
 */

export interface Operation {
  method: string;
  /** OpenAPI template: /v1/{facility_id}/flippers */
  template: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function operationsOf(document: {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>
  >;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    if (!template.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: op.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** A value of each path parameter that names a real record, so only the varied one is wrong. */
export function goodPathValues(t: TestApp, w: RichWorld): Record<string, string> {
  return {
    facility_id: t.world.facility.id,
    company_id: t.world.company.id,
    ledger_id: w.ledgerId,
    event_id: w.eventId,
    id: w.documentId,
    session_document_id: w.session.documentId,
    session_id: w.session.id,
    flipper_name: 'online_payments',
  };
}

export function goodQuery(operation: Operation, w: RichWorld): Record<string, string> {
  const query: Record<string, string> = {};
  if (operation.queryParams.includes('updated_after')) {
    query.updated_after = w.rateChanges.updatedAfter;
    query.updated_before = w.rateChanges.updatedBefore;
  }
  if (operation.queryParams.includes('start_date')) {
    query.start_date = w.rateAppliedActionsOn;
    query.end_date = w.rateAppliedActionsOn;
  }
  return query;
}

/** A body each POST operation accepts, so a varied field is the only thing wrong with it. */
export function goodBody(operation: Operation, w: RichWorld): Record<string, Json> {
  if (operation.template.endsWith('/notes')) {
    return {
      note: { note_text: 'Gate code changed', tenant_id: w.tenantId, ledger_id: w.ledgerId },
      user_id: '7',
    };
  }
  if (operation.template.endsWith('/review_cost')) {
    return { move_in: { unit_id: w.unitId, tenant_id: w.tenantId } };
  }
  if (operation.template.endsWith('/send_esignable_documents')) return { email: 'ada@example.com' };
  if (operation.template.endsWith('/retail_payment')) {
    return {
      retail_payment: { invoiceable_items: [{ invoiceable_item_id: w.retailItemId, quantity: 1 }] },
      payment_method: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        kind: 'credit_card',
        card_number: VISA,
        card_type: 'visa',
        security_code: '123',
        expiration_date: '12/39',
        billing_address_attributes: { address1: '1 Main St', city: 'Springfield', postal: '62701' },
      },
    };
  }
  return {};
}

export function urlOf(operation: Operation, values: Record<string, string>, query = ''): string {
  const path = operation.template.replace(
    /\{([^}]+)\}/g,
    (_m, name: string) => values[name] ?? '00000000-0000-4000-8000-000000000000',
  );
  return query ? `${path}?${query}` : path;
}

export function encodeQuery(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}
