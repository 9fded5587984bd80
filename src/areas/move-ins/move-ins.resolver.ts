import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { documentDownloadPath, present, type MoveInReviewView } from './move-in-review.contract';
import type { GraphqlContext } from '../../graphql/context';
import type { MoveInsService } from './move-ins.service';
import { DocumentObject, type DocumentView, type EventView } from '../documents/documents.graphql';
import { withArgumentNames } from '../../graphql/errors';
import { MoveInReviewInput, MoveInReviewObject } from './move-ins.graphql';
import { UUIDScalar } from '../../graphql/scalars';

const INPUT_NAMES = { unitId: 'input.unitId', tenantId: 'input.tenantId', moveInDate: 'input.moveInDate' };

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly moveIns: MoveInsService;
}

/** Move-in review (REST POST /v1/:facility_id/move_ins/review_cost). */
@Resolver()
export class MoveInsResolver {
  constructor(private readonly services: ResolverServices) {}

  @Mutation(() => MoveInReviewObject, {
    description:
      'Prices a move-in (rent, the fees required at move-in, total) and prepares its documents, kept as ' +
      'a session for 24 hours. NOT_FOUND for a unit or tenant of another facility, BAD_USER_INPUT for a ' +
      'move-in date in the past.',
  })
  async reviewMoveInCost(
    @Ctx() ctx: GraphqlContext,
    @Arg('facilityId', () => UUIDScalar) facilityId: string,
    @Arg('input', () => MoveInReviewInput) input: MoveInReviewInput,
  ): Promise<MoveInReviewView> {
    const facility = await ctx.loaders.facility(facilityId);
    const review = await withArgumentNames(INPUT_NAMES, () => this.services.moveIns.review(facility, input));
    return present(review, facility.timeZone);
  }
}

/** Where each event document downloads as a PDF (REST GET /v1/:facility_id/documents/:id). */
@Resolver(() => DocumentObject)
export class DocumentDownloadsResolver {
  @FieldResolver(() => String, {
    description: 'GET this path (with the same credentials) for the PDF, relative to the service address.',
  })
  async downloadUrl(
    @Root() document: DocumentView & { event?: EventView },
    @Ctx() ctx: GraphqlContext,
  ): Promise<string> {
    const event = document.event ?? (await ctx.loaders.events.load(document.eventId));
    if (!event) throw new Error(`event ${document.eventId} of document ${document.id} is missing`);
    return documentDownloadPath(event.facilityId, document.id);
  }
}
