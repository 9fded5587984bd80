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
  plan.upsert(
    'client_applications',
    ['id', 'company_id', 'name', 'consumer_key', 'consumer_secret', 'created_at'],
    clients.map((c) => {
      const id = lower(c.id);
      const secret = secrets ? secrets.seal(c.consumer_secret, consumerSecretPlace(id)) : c.consumer_secret;
      return [id, lower(c.company_id), c.name, c.consumer_key, secret, now];
    }),
  );
  const tokens = clients
    .filter((c) => c.bearer_token)
    .map((c) => [hashToken(c.bearer_token!), lower(c.id), now]);
  if (tokens.length)
    plan.upsert('bearer_tokens', ['token_hash', 'client_id', 'created_at'], tokens, ['token_hash']);
}
