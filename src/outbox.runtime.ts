import { SmtpEmailTransport } from './adapters/email/smtp.transport';
import { HttpSmsTransport } from './adapters/sms/http-sms.transport';
import type { Config, OutboxConfig } from './config';
import { DomainError } from './domain/errors';
import type { EmailAttachment, OutboxTransports } from './domain/outbox/outbox.transports';
import type { OutboxMessage } from './domain/outbox/outbox.types';
import {
  OutboxWorker,
  type OutboxWorkerOptions,
  type OutboxWorkerSettings,
  type WorkerLog,
} from './domain/outbox/outbox.worker';
import type { Services } from './services';

/** The transports the configuration names; a channel without one keeps its messages pending. */
export function outboxTransportsFrom(config: OutboxConfig): OutboxTransports {
  return {
    email: config.smtpUrl
      ? new SmtpEmailTransport({
          url: config.smtpUrl,
          from: config.smtpFrom,
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
}

export function outboxSettingsFrom(config: OutboxConfig): OutboxWorkerSettings {
  return {
    batchSize: config.batchSize,
    maxAttempts: config.maxAttempts,
    leaseMs: config.leaseMs,
    backoffBaseMs: config.backoffBaseMs,
    backoffMaxMs: config.backoffMaxMs,
    pollIntervalMs: config.pollIntervalMs,
  };
}

type AttachmentServices = Pick<Services, 'facilities' | 'documentPdfs'>;

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

/** A worker over the services' store and clock, the configured transports and PDF attachments (not started). */
export function createOutboxWorker(
  services: Pick<Services, 'outboxQueue' | 'clock'> & AttachmentServices,
  config: Pick<Config, 'outbox'>,
  options: OutboxWorkerOptions & { transports?: OutboxTransports } = {},
): OutboxWorker {
  return new OutboxWorker(
    services.outboxQueue,
    services.clock,
    options.transports ?? outboxTransportsFrom(config.outbox),
    outboxSettingsFrom(config.outbox),
    { attachments: pdfAttachments(services), ...options },
  );
}

export interface RunningOutboxWorker {
  readonly worker: OutboxWorker;
  /** Finishes the batch in hand, then stops and closes the transports. */
  stop(): Promise<void>;
}

/**
 * Starts this process's delivery worker (unless OUTBOX_WORKER is off); it wakes at once when a
 * request queues a message. Call `stop()` on shutdown before closing the store.
 */
export function startOutboxWorker(
  services: Pick<Services, 'outboxQueue' | 'clock' | 'outbox'> & AttachmentServices,
  config: Pick<Config, 'outbox'>,
  log?: WorkerLog,
): RunningOutboxWorker | null {
  if (!config.outbox.workerEnabled) return null;
  const transports = outboxTransportsFrom(config.outbox);
  const worker = createOutboxWorker(services, config, { transports, log });
  const channels = worker.channels;
  if (channels.length === 0) {
    log?.warn({}, 'no SMTP_URL or SMS_WEBHOOK_URL: e-sign messages stay pending in the outbox');
  } else {
    log?.info({ worker: worker.id, channels }, 'outbox worker started');
  }
  const unsubscribe = services.outbox.onEnqueued(() => worker.wake());
  worker.start();
  return {
    worker,
    stop: async () => {
      unsubscribe();
      await worker.stop();
      transports.email?.close();
      transports.sms?.close();
    },
  };
}
