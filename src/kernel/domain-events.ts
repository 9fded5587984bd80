/**
 * The events areas report their changes with, and the port they publish them through. An area
 * declares its events in its `<area>.events.ts` (their types, who hears them, and the function that
 * builds each one's payload) and hands the declarations in with its module (`AreaModule.events`);
 * src/modules.ts composes them. Whoever hears events (the webhooks' outbox, the live journal)
 * subscribes by type on the composition root's `DomainEventBus`: no area imports its listeners.
 */

/**
 * A change to report, written in the transaction of the change itself. Its `body` is fixed when it
 * is made: every listener writes those bytes (a webhook delivery sends them, a live event carries them).
 */
export interface DomainEvent {
  /** The event's type, as its area declares it (`payment.succeeded`, `webhook.delivery`, ...). */
  readonly type: string;
  readonly facilityId: string;
  /** The facility event the change belongs to (a payment's, an e-sign message's), if any. */
  readonly eventId: string | null;
  /** Stored UTC instant of the change. */
  readonly occurredAt: string;
  /** What the event carries: for a webhook's type `{"type","timestamp","data"}`, the exact bytes sent. */
  readonly body: string;
}

/** Who hears an event of a type besides the live journal, which hears every event. */
export type EventAudience = 'webhooks' | 'live';

/** One event type an area declares. */
export interface EventDeclaration<T extends string = string> {
  readonly type: T;
  /**
   * `webhooks`: an endpoint may ask for it, and it is delivered to those that do (and written to the
   * live journal); `live`: only the live journal hears it.
   */
  readonly audience: EventAudience;
  /** What it reports (docs/webhooks.md lists the webhook types). */
  readonly summary: string;
}

/** An area's event declarations, their types kept as written. */
export function declareEvents<const D extends readonly EventDeclaration[]>(declarations: D): D {
  return declarations;
}

/** The types of a list of declarations. */
export type EventTypeOf<D extends readonly EventDeclaration[]> = D[number]['type'];

/** The `data` of an event: a resource as the REST contract writes it (serialized with JSON.stringify). */
export type EventData = Record<string, unknown>;

/** An event whose body is `{"type","timestamp","data"}`: the shape every webhook delivery sends. */
export function domainEvent(
  type: string,
  facilityId: string,
  eventId: string | null,
  occurredAt: string,
  data: EventData,
): DomainEvent {
  return {
    type,
    facilityId,
    eventId,
    occurredAt,
    body: JSON.stringify({ type, timestamp: occurredAt, data }),
  };
}

/**
 * The port a change's events are published through. `publish` runs within the transaction `T` that
 * writes the change (each listener writes with it, or not at all); `announce` is called after it
 * committed, so listeners in this process look at once rather than at their next poll.
 */
export interface DomainEvents<T> {
  publish(trx: T, events: readonly DomainEvent[]): Promise<void>;
  announce(): void;
}

/** A listener writing the events it hears on the change's transaction. */
export type EventListener<T> = (trx: T, events: readonly DomainEvent[]) => Promise<unknown>;

/**
 * The composition root's `DomainEvents`: listeners subscribe by event type (or to every event),
 * and hear each publication in the order they subscribed, only the events they asked for.
 */
export class DomainEventBus<T> implements DomainEvents<T> {
  private readonly listeners: Array<{ types: ReadonlySet<string> | null; listener: EventListener<T> }> = [];
  private readonly committed: Array<() => void> = [];

  /** Hears the events of the types named (`'every'`: every event), within the writing transaction. */
  subscribe(types: readonly string[] | 'every', listener: EventListener<T>): this {
    this.listeners.push({ types: types === 'every' ? null : new Set(types), listener });
    return this;
  }

  /** Is called after a change that published events committed. */
  afterCommit(listener: () => void): this {
    this.committed.push(listener);
    return this;
  }

  async publish(trx: T, events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const { types, listener } of this.listeners) {
      const heard = types === null ? events : events.filter((event) => types.has(event.type));
      if (heard.length > 0) await listener(trx, heard);
    }
  }

  announce(): void {
    for (const listener of this.committed) listener();
  }
}
