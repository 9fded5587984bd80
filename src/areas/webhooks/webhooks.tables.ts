import { nullable, text, textOf, type TablesOf } from '../../kernel/columns';

/** Why an endpoint is disabled: by a person, or by the service after it failed for days. */
export type DisabledReason = 'manual' | 'failing';

/** The webhook endpoints of companies (composed into the store's Database). */
export const webhookEndpoints = {
  id: text,
  company_id: text,
  url: text,
  description: nullable(text),
  /** Comma-separated event types. */
  event_types: text,
  /** `whsec_...`, sealed by the secret box (every delivery is signed with it, so not hashed). */
  secret: text,
  /** The secret a rotation replaced (sealed likewise), honoured (both signatures sent) until it expires. */
  previous_secret: nullable(text),
  previous_secret_expires_at: nullable(text),
  created_at: text,
  secret_rotated_at: nullable(text),
  disabled_at: nullable(text),
  disabled_reason: nullable(textOf<DisabledReason>()),
  failing_since: nullable(text),
};

/** The area's tables by their SQL names: its part of the store's Database (its module hands them in). */
export const webhooksTables = { webhook_endpoints: webhookEndpoints };

declare module '../../store/schema' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables above, in the store's Database
  interface Database extends TablesOf<typeof webhooksTables> {}
}
