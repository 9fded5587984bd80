import { Field, InputType, ObjectType } from 'type-graphql';
import type { ReviewMoveInCommand } from './move-ins.types';
import type {
  MoveInCostView,
  MoveInFeeView,
  MoveInReviewView,
  SessionDocumentView,
} from './move-in-review.contract';
import { DateTimeScalar, LocalDateScalar, MoneyScalar, UUIDScalar } from '../../graphql/scalars';
import { Cost } from '../../graphql/cost-directives';
import { MOVE_IN_TEMPLATES } from './move-in.templates';

@InputType('MoveInReviewInput', { description: 'What to price: the same fields as REST move_in.' })
export class MoveInReviewInput implements ReviewMoveInCommand {
  @Field(() => UUIDScalar, { description: 'A unit of the facility.' })
  unitId: string;

  @Field(() => UUIDScalar, { nullable: true, description: 'A tenant of the facility, when known.' })
  tenantId?: string | null;

  @Field(() => LocalDateScalar, {
    nullable: true,
    description: 'Today or later at the facility (default: today where the facility is).',
  })
  moveInDate?: string | null;
}

@ObjectType('MoveInFee', { simpleResolvers: true, description: 'A fee item charged at every move-in.' })
export class MoveInFeeObject implements MoveInFeeView {
  @Field(() => UUIDScalar, { description: 'The invoiceable item.' })
  id: string;

  @Field(() => String)
  description: string;

  @Field(() => MoneyScalar, { description: "The item's total, tax included." })
  amount: number;
}

@ObjectType('MoveInCost', { simpleResolvers: true, description: 'What a move-in costs.' })
export class MoveInCostObject implements MoveInCostView {
  @Field(() => MoneyScalar, { description: "The unit's monthly rate." })
  rent: number;

  @Field(() => [MoveInFeeObject], { description: 'Fees required at move-in, by description, then id.' })
  fees: MoveInFeeObject[];

  @Field(() => MoneyScalar, { description: 'Rent plus every fee.' })
  total: number;
}

@ObjectType('SessionDocument', {
  simpleResolvers: true,
  description: 'A move-in document, downloadable as a PDF until its session expires.',
})
export class SessionDocumentObject implements SessionDocumentView {
  @Field(() => UUIDScalar, { description: 'Not a document id: it downloads only with its session.' })
  sessionDocumentId: string;

  @Field(() => String)
  description: string;

  @Field(() => String)
  type: string;

  @Field(() => Boolean)
  isRelevant: boolean;

  @Field(() => Boolean, { description: 'Whether it is meant to be signed.' })
  esignable: boolean;

  @Field(() => DateTimeScalar)
  createdAt: string;

  @Field(() => String, {
    description: 'GET this path (with the same credentials) for the PDF; 410 once the session has expired.',
  })
  downloadUrl: string;
}

@ObjectType('MoveInReview', {
  simpleResolvers: true,
  description: 'A priced move-in, kept as a session for 24 hours; nothing else is saved.',
})
export class MoveInReviewObject implements MoveInReviewView {
  @Field(() => UUIDScalar)
  sessionId: string;

  @Field(() => DateTimeScalar, { description: 'When the session and its documents stop answering (410).' })
  expiresAt: string;

  @Field(() => UUIDScalar)
  unitId: string;

  @Field(() => UUIDScalar, { nullable: true })
  tenantId: string | null;

  @Field(() => LocalDateScalar)
  moveInDate: string;

  @Field(() => MoveInCostObject)
  cost: MoveInCostObject;

  // One per move-in template.
  @Field(() => [SessionDocumentObject])
  @Cost({ assumedSize: MOVE_IN_TEMPLATES.length })
  documents: SessionDocumentObject[];
}
