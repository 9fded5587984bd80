import { declareEvents, domainEvent, type DomainEvent } from '../../kernel/domain-events';
import type { Facility } from '../facilities/facilities.types';
import * as MoveInReviewContract from './move-in-review.contract';
import type { MoveInsEventBuilders } from './move-ins.ports';
import type { MoveInReview } from './move-ins.types';

/** The events the move-ins area reports (docs/webhooks.md). */
export const MOVE_INS_EVENTS = declareEvents([
  { type: 'move_in.reviewed', audience: 'webhooks', summary: 'a move-in cost review is saved' },
]);

/** The move-ins' events, each's `data` the review as the REST contract answers it, with its facility. */
export const moveInsEvents: MoveInsEventBuilders = {
  moveInReviewed(facility: Facility, review: MoveInReview): DomainEvent {
    return domainEvent('move_in.reviewed', facility.id, null, review.session.createdAt, {
      facility_id: facility.id,
      ...MoveInReviewContract.toContract(review, facility.timeZone),
    });
  },
};
