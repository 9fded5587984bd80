import { SmtpEmailTransport } from './adapters/email/smtp.transport';
import { HttpSmsTransport } from './adapters/sms/http-sms.transport';
import { HttpWebhookTransport } from './adapters/webhooks/http-webhook.transport';
import type { Config, OutboxConfig, WebhooksConfig } from './config';
import { DomainError } from './kernel/errors';
import type { EmailAttachment, OutboxTransports, WebhookSender } from './areas/outbox/transports.ports';
import type { OutboxMessage } from './areas/outbox/outbox.types';
import {
  DEFAULT_OUTBOX_SETTINGS,
  OutboxWorker,
  type OutboxWorkerOptions,
  type OutboxWorkerSettings,
  type WorkerLog,
} from './areas/outbox/outbox.worker';
import { WebhookDispatcher } from './areas/webhooks/webhooks.dispatcher';
import type { WebhookHttpTransport } from './areas/webhooks/webhooks.ports';
import type { Services } from './services';
import { activeTracing, inRootSpan, inSpan, type ActiveTracing } from './telemetry/tracing';

/** The transports the configuration names; a channel without one keeps its messages pending. */
export function outboxTransportsFrom(config: OutboxConfig): OutboxTransports {
  const tracing = activeTracing();
  const transports: OutboxTransports = {
    email: config.smtpUrl
      ? new SmtpEmailTransport({
          url: config.smtpUrl,
          from: config.smtpFrom,
          replyTo: config.smtpReplyTo,
          timeoutMs: config.sendTimeoutMs,
        })
      : null,
    sms: config.smsWebhookUrl
      ? new HttpSmsTransport({
          url: config.smsWebhookUrl,
          token: config.smsWebhookToken,
          timeoutMs: config.sendTimeoutMs,
        })
      : null,
  };
  return tracing ? tracedTransports(transports, tracing) : transports;
}

const DELIVERY = { 'messaging.system': 'facility-ops-outbox' };

/** Tracing on: each e-mail and SMS delivery is a trace of its own (`outbox delivery email`). */
function tracedTransports(transports: OutboxTransports, tracing: ActiveTracing): OutboxTransports {
  const { email, sms } = transports;
  const attributes = (channel: string) => ({ ...DELIVERY, 'messaging.destination.name': channel });
  return {
    email: email && {
      send: (message, signal) =>
        inRootSpan(tracing, 'outbox delivery email', attributes('email'), () => email.send(message, signal)),
      close: () => email.close(),
    },
    sms: sms && {
      send: (message, signal) =>
        inRootSpan(tracing, 'outbox delivery sms', attributes('sms'), () => sms.send(message, signal)),
      close: () => sms.close(),
    },
  };
}

/** Tracing on: each webhook delivery is a trace of its own, its HTTP attempt a span in it. */
function tracedWebhookSender(sender: WebhookSender, tracing: ActiveTracing): WebhookSender {
  return {
    send: (message, signal) =>
      inRootSpan(
        tracing,
        'outbox delivery webhook',
        {
          ...DELIVERY,
          'messaging.destination.name': 'webhook',
          'messaging.message.id': message.id,
          'facility_ops.outbox.attempt': message.attempts,
        },
        async (span) => {
          const outcome = await sender.send(message, signal);
          if (outcome.responseCode !== null)
            span.setAttribute('http.response.status_code', outcome.responseCode);
          return outcome;
        },
      ),
    retryDelayMs: (attempts) => sender.retryDelayMs(attempts),
    close: () => sender.close(),
  };
}

/** Tracing on: each webhook attempt's POST is a client span with the endpoint's host and status. */
function tracedWebhookTransport(
  transport: WebhookHttpTransport,
  tracing: ActiveTracing,
): WebhookHttpTransport {
  return {
    post: (request) =>
      inSpan(
        tracing,
        'webhook POST',
        { 'http.request.method': 'POST', 'server.address': new URL(request.url).hostname },
        async (span) => {
          const response = await transport.post(request);
          span.setAttribute('http.response.status_code', response.status);
          return response;
        },
        'client',
      ),
    close: () => transport.close(),
  };
}

/** The worker's settings; the webhook lane's limits are the defaults unless `webhooks` is given. */
export function outboxSettingsFrom(
  config: OutboxConfig,
  webhooks?: Pick<WebhooksConfig, 'concurrency' | 'endpointConcurrency' | 'companyConcurrency'>,
): OutboxWorkerSettings {
  return {
    batchSize: config.batchSize,
    concurrency: config.concurrency,
    webhookConcurrency: webhooks?.concurrency ?? DEFAULT_OUTBOX_SETTINGS.webhookConcurrency,
    webhookEndpointConcurrency:
      webhooks?.endpointConcurrency ?? DEFAULT_OUTBOX_SETTINGS.webhookEndpointConcurrency,
    webhookCompanyConcurrency:
      webhooks?.companyConcurrency ?? DEFAULT_OUTBOX_SETTINGS.webhookCompanyConcurrency,
    maxAttempts: config.maxAttempts,
    leaseMs: config.leaseMs,
    backoffBaseMs: config.backoffBaseMs,
    backoffMaxMs: config.backoffMaxMs,
    pollIntervalMs: config.pollIntervalMs,
    stopGraceMs: config.stopGraceMs,
  };
}

type AttachmentServices = Pick<Services, 'facilities' | 'documentPdfs'>;
type WebhookServices = Pick<
  Services,
  'webhookEndpoints' | 'deliveryEvents' | 'webhooks' | 'hostResolver' | 'clock'
>;

/** Webhook delivery: signed POSTs over Node's http/https with the configured safety rules. */
export function webhookSenderFrom(
  services: WebhookServices,
  config: Pick<Config, 'webhooks'>,
  log?: WorkerLog,
): WebhookSender {
  const http = new HttpWebhookTransport({
    timeoutMs: config.webhooks.timeoutMs,
    maxResponseBytes: config.webhooks.maxResponseBytes,
    allowHosts: config.webhooks.allowHosts,
    resolver: services.hostResolver,
  });
  const tracing = activeTracing();
  const transport = tracing ? tracedWebhookTransport(http, tracing) : http;
  const dispatcher = new WebhookDispatcher(
    services.webhookEndpoints,
    transport,
    services.clock,
    { disableAfterMs: config.webhooks.disableAfterHours * 3_600_000 },
    log,
  );
  return tracing ? tracedWebhookSender(dispatcher, tracing) : dispatcher;
}

/**
 * The rendered PDFs of the documents an email offers. A document removed since the message was
 * queued is left out (the email still names it); any other rendering failure fails the attempt.
 */
export function pdfAttachments(services: AttachmentServices) {
  return async (message: OutboxMessage): Promise<EmailAttachment[]> => {
    const [facility] = await services.facilities.facilitiesByIds([message.facilityId]);
    if (!facility || !message.content) return [];
    const attachments: EmailAttachment[] = [];
    for (const document of message.content.documents) {
      try {
        const pdf = await services.documentPdfs.documentPdf(facility, document.id);
        attachments.push({ filename: pdf.filename, contentType: 'application/pdf', content: pdf.content });
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
      }
    }
    return attachments;
  };
}

/**
 * A worker over the services' store and clock, the configured transports, webhook delivery, PDF
 * attachments, e-sign outcome events and webhook delivery counts (not started).
 */
export function createOutboxWorker(
  services: Pick<Services, 'outboxQueue' | 'clock'> & AttachmentServices & WebhookServices,
  config: Pick<Config, 'outbox' | 'webhooks'>,
  options: OutboxWorkerOptions & { transports?: OutboxTransports } = {},
): OutboxWorker {
  const transports = options.transports ?? {
    ...outboxTransportsFrom(config.outbox),
    webhook: webhookSenderFrom(services, config, options.log),
  };
  return new OutboxWorker(
    services.outboxQueue,
    services.clock,
    transports,
    outboxSettingsFrom(config.outbox, config.webhooks),
    {
      attachments: pdfAttachments(services),
      events: services.deliveryEvents,
      onOutcome: (message, outcome) => {
        if (message.channel === 'webhook') services.webhooks.reportDelivery(outcome);
      },
      ...options,
    },
  );
}

/** What this process's delivery worker runs on. */
export type OutboxWorkerServices = Pick<Services, 'outboxQueue' | 'clock' | 'outbox'> &
  AttachmentServices &
  WebhookServices;

export interface RunningOutboxWorker {
  readonly worker: OutboxWorker;
  /**
   * Stops claiming, lets the attempts in flight finish (aborting those still going after
   * OUTBOX_STOP_GRACE_MS), then closes the transports.
   */
  stop(): Promise<void>;
}

/**
 * Starts this process's delivery worker (unless OUTBOX_WORKER is off); it wakes at once when a
 * request queues a message. Call `stop()` on shutdown before closing the store.
 */
export function startOutboxWorker(
  services: OutboxWorkerServices,
  config: Pick<Config, 'outbox' | 'webhooks'>,
  log?: WorkerLog,
): RunningOutboxWorker | null {
  if (!config.outbox.workerEnabled) return null;
  const transports: OutboxTransports = {
    ...outboxTransportsFrom(config.outbox),
    webhook: webhookSenderFrom(services, config, log),
  };
  const worker = createOutboxWorker(services, config, { transports, log });
  if (!transports.email && !transports.sms) {
    log?.warn({}, 'no SMTP_URL or SMS_WEBHOOK_URL: e-sign messages stay pending in the outbox');
  }
  log?.info({ worker: worker.id, channels: worker.channels }, 'outbox worker started');
  const unsubscribe = services.outbox.onEnqueued(() => worker.wake());
  worker.start();
  return {
    worker,
    stop: async () => {
      unsubscribe();
      await worker.stop();
      transports.email?.close();
      transports.sms?.close();
      transports.webhook?.close();
    },
  };
}
