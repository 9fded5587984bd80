import { hashToken } from '../../../auth/auth.service';
import type { SecretBox } from '../../../kernel/secret-box';
import { consumerSecretPlace } from '../../repositories/clients.repository';
import type { Dataset } from '../dataset.types';
import { lower, type PlanBuilder } from './plan-builder';

/**
 * Client applications, their consumer secrets sealed under the operator's key when one is given,
 * and their bearer tokens kept as SHA-256 hashes.
 */
export function planClients(plan: PlanBuilder, data: Dataset, now: string, secrets?: SecretBox): void {
  const clients = data.client_applications ?? [];
  plan.upsertRows(
    'client_applications',
    clients.map((c) => {
      const id = lower(c.id);
      const secret = secrets ? secrets.seal(c.consumer_secret, consumerSecretPlace(id)) : c.consumer_secret;
      return {
        id,
        company_id: lower(c.company_id),
        name: c.name,
        consumer_key: c.consumer_key,
        consumer_secret: secret,
        created_at: now,
        kind: 'imported' as const,
      };
    }),
  );
  const tokens = clients
    .filter((c) => c.bearer_token)
    .map((c) => ({ token_hash: hashToken(c.bearer_token!), client_id: lower(c.id), created_at: now }));
  if (tokens.length) plan.upsertRows('bearer_tokens', tokens, ['token_hash']);
}
