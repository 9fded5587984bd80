import { areaModule } from '../../area-module';
import { insertWebhookEvents } from './webhook-events.writer';
import { CompanyWebhooksResolver, WebhookEndpointsResolver } from './webhooks.resolver';
import { webhooksTables } from './webhooks.tables';

/** The webhooks area, as the kits take it (see AreaModule). */
export const webhooksModule = areaModule({
  name: 'webhooks',
  resolvers: [CompanyWebhooksResolver, WebhookEndpointsResolver],
  tables: webhooksTables,
  // Delivers the events declared for webhooks to the endpoints that want them.
  listeners: [{ hears: 'webhooks', listen: insertWebhookEvents }],
});
