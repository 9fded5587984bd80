import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../../graphql/context';
import type { EsignService } from './esign.service';
import { outboxMessageView, SendEsignableDocumentsPayload } from '../outbox/outbox.graphql';
import { UUIDScalar } from '../../graphql/scalars';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly esign: EsignService;
}

/** E-sign delivery (REST 4.9): queues the event's esignable documents for email or SMS. */
@Resolver()
export class EsignResolver {
  constructor(private readonly services: ResolverServices) {}

  @Mutation(() => SendEsignableDocumentsPayload, {
    description:
      "Sends the event's esignable documents to exactly one of email or smsNumber, through the outbox. " +
      'NOT_FOUND for an unknown event, CONFLICT for both recipients, BAD_USER_INPUT for neither or a ' +
      'malformed one, ACTION_FAILED when the event has no esignable documents.',
  })
  async sendEsignableDocuments(
    @Ctx() ctx: GraphqlContext,
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('eventId', () => UUIDScalar) eventId: string,
    @Arg('email', () => String, { nullable: true }) email: string | null,
    @Arg('smsNumber', () => String, {
      nullable: true,
      description: 'With its country code (+15555550100), or a 10-digit North American number.',
    })
    smsNumber: string | null,
  ): Promise<SendEsignableDocumentsPayload> {
    const facility = await ctx.loaders.facility(facilityId);
    const messages = await this.services.esign.sendEsignableDocuments(facility, {
      eventId,
      email,
      smsNumber,
    });
    return { eventId, messages: messages.map((message) => outboxMessageView(message, facility.timeZone)) };
  }
}
