import {
  sql,
  type AliasedSelectQueryBuilder,
  type ExpressionBuilder,
  type QueryCreator,
  type RawBuilder,
} from 'kysely';
import type { AttemptFailure, ClaimRequest, OutboxRepository, OutboxRows, SentRecord } from './outbox.ports';
import { parseOutboxContent, parseOutboxWebhook } from './outbox.service';
import { outboxMessages } from './outbox.tables';
import type { OutboxMessage, OutboxStatus } from './outbox.types';
import type { Db, StoreEvents } from '../../store/database';
import { isPostgres, rowLimit } from '../../store/dialect';
import { rowCodec } from '../../store/rows';
import { keysetParts, sliceOfRows } from '../../store/keyset';
import type { Slice, SliceRequest } from '../../kernel/connections';
import type { Database, OutboxMessagesTable } from '../../store/schema';
import { webhookDeliveryChanged } from './outbox.events';

/** Per schema: claims under a per-recipient cap run one at a time (PostgreSQL advisory lock). */
const CAPPED_CLAIM_LOCK = 'facility-ops.outbox.capped-claim.';

/** The channels of messages to people, which a facility's outbox lists. */
const PERSON_CHANNELS = ['email', 'sms'] as const;

export type OutboxMessageRow = OutboxMessagesTable;

/** A due message that fits under a recipient's cap. */
interface FitRow {
  id: string;
  recipient: string;
  facility_id: string;
  next_attempt_at: string;
}

/** A due message that fits under every cap (company_id: null without a company cap). */
interface CappedRow {
  id: string;
  recipient: string;
  next_attempt_at: string;
  company_id: string | null;
}

/** The message's columns but its payload, which is JSON (read and written below). */
const messageColumns = rowCodec(outboxMessages, ['payload']);

/**
 * A stored message, its payload read as its channel has it. The codec's record is new, so the
 * payload's two fields are set on it rather than the record copied into another object: claims
 * read every message they take this way.
 */
function storedMessage(row: OutboxMessageRow): OutboxMessage {
  const message = messageColumns.read(row) as OutboxMessage;
  const webhook = row.channel === 'webhook';
  message.content = webhook ? null : parseOutboxContent(row.payload);
  message.webhook = webhook ? parseOutboxWebhook(row.payload) : null;
  return message;
}

/** A message as stored, its content (or webhook event) written as the payload. */
function messageStored(message: OutboxMessage): OutboxMessageRow {
  return {
    ...messageColumns.write(message),
    payload: JSON.stringify(message.channel === 'webhook' ? message.webhook : message.content),
  };
}

/** The outbox's rows as other areas' repositories write and read them (handed over by src/services.ts). */
export const outboxRows: OutboxRows<OutboxMessageRow> = { read: storedMessage, write: messageStored };

/** Due now: pending and its time has come, or claimed by a worker whose lease ran out. */
function isDue(eb: ExpressionBuilder<Database, 'outbox_messages'>, now: string) {
  return eb.or([
    eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
    eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<=', now)]),
  ]);
}

/** A due row's place in its partition plus the partition's attempts in flight (none: 0). */
function withInFlight(place: string, busy: string): RawBuilder<number> {
  return sql<number>`${sql.ref(place)} + coalesce(${sql.ref(busy)}, 0)`;
}

export class SqlOutboxRepository implements OutboxRepository {
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    private readonly events: StoreEvents,
  ) {
    this.postgres = isPostgres(db);
  }

  /** Each row's place in its partition, the soonest due first (ids, bytewise, break ties). */
  private placeIn(partition: string, dueAt: string, id: string): RawBuilder<number> {
    return sql<number>`row_number() over (partition by ${sql.ref(partition)} order by ${this.binary(
      dueAt,
    )}, ${this.binary(id)})`;
  }

  /** Byte-order comparison on both dialects, whatever the PostgreSQL database collation. */
  private binary(column: string): RawBuilder<string> {
    return this.postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  }

  /** Writes the messages in one transaction: all of them or none. */
  async insertMessages(messages: readonly OutboxMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('outbox_messages').values(messages.map(messageStored)).execute();
    });
  }

  /**
   * Claims up to `limit` due messages for one worker and returns them; a message is claimed by
   * exactly one worker. PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED);
   * SQLite writes one statement at a time, so a conditional update by id is atomic there. With
   * `perRecipient`, a recipient's messages in flight (claimed by any worker, lease running) never
   * exceed it, and with `perCompany` a company's (the company of each message's facility) never
   * exceed that: on PostgreSQL such claims take a lock of their own (one at a time, each sees the
   * last one's claims); on SQLite each row's update checks the counts itself.
   */
  async claimDue(request: ClaimRequest): Promise<OutboxMessage[]> {
    if (request.channels.length === 0 || request.limit < 1) return [];
    const { perRecipient, perCompany } = request;
    if ((perRecipient !== undefined && perRecipient < 1) || (perCompany !== undefined && perCompany < 1)) {
      return [];
    }
    const capped = perRecipient !== undefined || perCompany !== undefined;
    const claim = {
      status: 'sending' as const,
      claimed_by: request.workerId,
      claimed_until: request.leaseUntil,
    };
    const candidates = (eb: ExpressionBuilder<Database, 'outbox_messages'>) =>
      eb.and([isDue(eb, request.now), eb('channel', 'in', request.channels)]);

    if (this.postgres) {
      const claimOn = async (db: Db): Promise<OutboxMessage[]> => {
        // Materialized, so the locked selection runs once: an IN (subquery ... LIMIT) may be
        // evaluated again by the planner and claim more than the limit.
        const rows = await db
          .with(
            (cte) => cte('due').materialized(),
            (query) => {
              let due = query.selectFrom('outbox_messages').select('id').where(candidates);
              if (capped) {
                due = due.where(
                  'id',
                  'in',
                  query.selectFrom(this.withinCaps(query, request)).select('capped.id'),
                );
              }
              return due
                .orderBy(this.binary('next_attempt_at'))
                .orderBy(this.binary('id'))
                .limit(rowLimit(request.limit))
                .forUpdate()
                .skipLocked();
            },
          )
          .updateTable('outbox_messages')
          .from('due')
          .set((eb) => ({ ...claim, attempts: eb('outbox_messages.attempts', '+', 1) }))
          .whereRef('outbox_messages.id', '=', 'due.id')
          .returningAll('outbox_messages')
          .execute();
        return rows.sort(byNextAttemptThenId).map(storedMessage);
      };
      if (!capped) return claimOn(this.db);
      return this.db.transaction().execute(async (trx) => {
        // Held to the end of the transaction: the next capped claim counts this one's claims.
        await sql`select pg_advisory_xact_lock(hashtext(${CAPPED_CLAIM_LOCK} || current_schema()))`.execute(
          trx,
        );
        return claimOn(trx);
      });
    }

    const due: { id: string; recipient: string; company_id: string | null }[] = capped
      ? await this.db
          .selectFrom(this.withinCaps(this.db, request))
          .select(['capped.id', 'capped.recipient', 'capped.company_id'])
          .orderBy('capped.next_attempt_at')
          .orderBy('capped.id')
          .limit(rowLimit(request.limit))
          .execute()
      : await this.db
          .selectFrom('outbox_messages')
          .select(['id', 'recipient', sql<string | null>`null`.as('company_id')])
          .where(candidates)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(rowLimit(request.limit))
          .execute();
    const claimed: OutboxMessage[] = [];
    for (const { id, recipient, company_id: companyId } of due) {
      let update = this.db
        .updateTable('outbox_messages')
        .set((eb) => ({ ...claim, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', id)
        .where(candidates);
      if (perRecipient !== undefined) {
        update = update.where(
          (eb) =>
            eb
              .selectFrom('outbox_messages as busy')
              .select((inner) => inner.fn.countAll<number>().as('count'))
              .where('busy.channel', 'in', request.channels)
              .where('busy.recipient', '=', recipient)
              .where('busy.status', '=', 'sending')
              .where('busy.claimed_until', '>', request.now),
          '<',
          perRecipient,
        );
      }
      if (perCompany !== undefined && companyId !== null) {
        update = update.where(
          (eb) =>
            eb
              .selectFrom('outbox_messages as busy')
              .innerJoin('facilities as busy_facility', 'busy_facility.id', 'busy.facility_id')
              .select((inner) => inner.fn.countAll<number>().as('count'))
              .where('busy.channel', 'in', request.channels)
              .where('busy_facility.company_id', '=', companyId)
              .where('busy.status', '=', 'sending')
              .where('busy.claimed_until', '>', request.now),
          '<',
          perCompany,
        );
      }
      const row = await update.returningAll().executeTakeFirst();
      if (row) claimed.push(storedMessage(row));
    }
    return claimed;
  }

  /**
   * Due messages of the request's channels that fit under the caps, as `capped`: a recipient's
   * oldest due ones, as many as `perRecipient` leaves beside its messages in flight (lease
   * running); of those, a company's oldest, as many as `perCompany` leaves beside the company's in
   * flight (the company of each message's facility; company_id is null without `perCompany`).
   */
  private withinCaps(
    db: QueryCreator<Database>,
    request: ClaimRequest,
  ): AliasedSelectQueryBuilder<CappedRow, 'capped'> {
    const { perRecipient, perCompany } = request;
    const inFlight = db
      .selectFrom('outbox_messages as busy')
      .where('busy.channel', 'in', request.channels)
      .where('busy.status', '=', 'sending')
      .where('busy.claimed_until', '>', request.now);
    const due = db
      .selectFrom('outbox_messages')
      .where((eb) => eb.and([isDue(eb, request.now), eb('channel', 'in', request.channels)]));

    let fit: AliasedSelectQueryBuilder<FitRow, 'fit'> = due
      .select(['id', 'recipient', 'facility_id', 'next_attempt_at'])
      .as('fit');
    if (perRecipient !== undefined) {
      const recipientBusy = inFlight
        .select((eb) => ['busy.recipient', eb.fn.countAll<number>().as('busy')])
        .groupBy('busy.recipient');
      const ranked = due.select([
        'id',
        'recipient',
        'facility_id',
        'next_attempt_at',
        this.placeIn('recipient', 'next_attempt_at', 'id').as('place'),
      ]);
      // The place filter first: only each recipient's first `cap` due ones meet the in-flight counts.
      const heads = db.selectFrom(ranked.as('ranked')).selectAll().where('place', '<=', perRecipient);
      fit = db
        .selectFrom(heads.as('ranked'))
        .leftJoin(recipientBusy.as('in_flight'), 'in_flight.recipient', 'ranked.recipient')
        .where(withInFlight('ranked.place', 'in_flight.busy'), '<=', perRecipient)
        .select(['ranked.id', 'ranked.recipient', 'ranked.facility_id', 'ranked.next_attempt_at'])
        .as('fit');
    }
    if (perCompany === undefined) {
      return db
        .selectFrom(fit)
        .select(['fit.id', 'fit.recipient', 'fit.next_attempt_at', sql<string | null>`null`.as('company_id')])
        .as('capped');
    }

    // Of what fits each recipient, each company's oldest, beside the company's attempts in flight.
    const companyBusy = inFlight
      .innerJoin('facilities as busy_facility', 'busy_facility.id', 'busy.facility_id')
      .select((eb) => ['busy_facility.company_id', eb.fn.countAll<number>().as('busy')])
      .groupBy('busy_facility.company_id');
    const byCompany = db
      .selectFrom(fit)
      .innerJoin('facilities', 'facilities.id', 'fit.facility_id')
      .select([
        'fit.id',
        'fit.recipient',
        'fit.next_attempt_at',
        'facilities.company_id',
        this.placeIn('facilities.company_id', 'fit.next_attempt_at', 'fit.id').as('company_place'),
      ]);
    const companyHeads = db
      .selectFrom(byCompany.as('by_company'))
      .selectAll()
      .where('company_place', '<=', perCompany);
    return db
      .selectFrom(companyHeads.as('heads'))
      .leftJoin(companyBusy.as('company_in_flight'), 'company_in_flight.company_id', 'heads.company_id')
      .where(withInFlight('heads.company_place', 'company_in_flight.busy'), '<=', perCompany)
      .select(['heads.id', 'heads.recipient', 'heads.next_attempt_at', 'heads.company_id'])
      .as('capped');
  }

  /**
   * Records a delivery. Whoever holds the claim now, the message went out: it is sent. The first
   * record of it writes the events reporting it in the same transaction; a later one changes nothing.
   */
  async markSent(id: string, sentAt: string, record: SentRecord = {}): Promise<void> {
    const { keptContent, responseCode, events = [] } = record;
    await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('outbox_messages')
        .set({
          status: 'sent',
          sent_at: sentAt,
          claimed_by: null,
          claimed_until: null,
          last_error: null,
          ...(responseCode !== undefined ? { response_code: responseCode } : {}),
          ...(keptContent ? { payload: JSON.stringify(keptContent) } : {}),
        })
        .where('id', '=', id)
        .where('status', '<>', 'sent')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return;
      await this.events.publish(trx, events);
      await this.publishDeliveryChange(trx, id, sentAt);
    });
  }

  /**
   * Records a failed attempt, if this worker still holds the claim (after its lease ran out,
   * another worker may have the message, and its outcome counts instead). True when recorded.
   */
  async markAttemptFailed(id: string, workerId: string, failure: AttemptFailure): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('outbox_messages')
        .set({
          status: failure.status,
          next_attempt_at: failure.nextAttemptAt,
          last_error: failure.lastError,
          claimed_by: null,
          claimed_until: null,
          ...(failure.responseCode !== undefined ? { response_code: failure.responseCode } : {}),
          ...(failure.keptContent ? { payload: JSON.stringify(failure.keptContent) } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'sending')
        .where('claimed_by', '=', workerId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await this.events.publish(trx, failure.events ?? []);
      await this.publishDeliveryChange(trx, id, failure.nextAttemptAt);
      return true;
    });
  }

  /**
   * Publishes, on the caller's transaction, that a webhook message's delivery changed (nothing for
   * another channel's message).
   */
  private async publishDeliveryChange(trx: Db, messageId: string, at: string): Promise<void> {
    const message = await trx
      .selectFrom('outbox_messages')
      .select(['facility_id', 'recipient'])
      .where('id', '=', messageId)
      .where('channel', '=', 'webhook')
      .executeTakeFirst();
    if (!message) return;
    await this.events.publish(trx, [
      webhookDeliveryChanged(message.facility_id, message.recipient, messageId, at),
    ]);
  }

  async countForFacility(facilityId: string, filter: { status?: OutboxStatus }): Promise<number> {
    let query = this.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('facility_id', '=', facilityId)
      .where('channel', 'in', PERSON_CHANNELS);
    if (filter.status) query = query.where('status', '=', filter.status);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** One page of the facility's messages, newest first (created_at, then id, descending). */
  async pageForFacility(
    facilityId: string,
    filter: { status?: OutboxStatus },
    limit: number,
    offset: number,
  ): Promise<OutboxMessage[]> {
    let query = this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('facility_id', '=', facilityId)
      .where('channel', 'in', PERSON_CHANNELS);
    if (filter.status) query = query.where('status', '=', filter.status);
    const rows = await query
      .orderBy(this.binary('created_at'), 'desc')
      .orderBy(this.binary('id'), 'desc')
      .limit(rowLimit(limit))
      .offset(offset)
      .execute();
    return rows.map(storedMessage);
  }

  /**
   * A slice of the facility's messages from a position, newest first (created_at, then id,
   * descending), along outbox_messages_list_order, and how many match.
   */
  async sliceForFacility(
    facilityId: string,
    filter: { status?: OutboxStatus },
    slice: SliceRequest,
  ): Promise<Slice<OutboxMessage>> {
    const keyset = keysetParts([this.binary('created_at'), this.binary('id')], slice, true);
    let query = this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('facility_id', '=', facilityId)
      .where('channel', 'in', PERSON_CHANNELS);
    if (filter.status) query = query.where('status', '=', filter.status);
    const [total, rows] = await Promise.all([
      this.countForFacility(facilityId, filter),
      query
        .where(keyset.where)
        .orderBy(keyset.orderBy)
        .limit(rowLimit(slice.limit + 1))
        .execute(),
    ]);
    const { rows: kept, more } = sliceOfRows(rows, slice);
    return {
      entries: kept.map(storedMessage),
      keys: kept.map((row) => [row.created_at, row.id]),
      more,
      total,
    };
  }

  /** Messages by id, in key order, null for a missing id. */
  async messagesByIds(ids: readonly string[]): Promise<(OutboxMessage | null)[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('outbox_messages')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, storedMessage(row)]));
    return ids.map((id) => byId.get(id) ?? null);
  }
}

function byNextAttemptThenId(a: OutboxMessageRow, b: OutboxMessageRow): number {
  if (a.next_attempt_at !== b.next_attempt_at) return a.next_attempt_at < b.next_attempt_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
