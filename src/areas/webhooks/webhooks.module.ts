import { areaModule } from '../../area-module';
import { CompanyWebhooksResolver, WebhookEndpointsResolver } from './webhooks.resolver';
import { webhooksTables } from './webhooks.tables';

/** The webhooks area, as the kits take it (see AreaModule). */
export const webhooksModule = areaModule({
  name: 'webhooks',
  resolvers: [CompanyWebhooksResolver, WebhookEndpointsResolver],
  tables: webhooksTables,
});
