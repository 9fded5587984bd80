import type { Clock } from '../../clock';
import type { RateAppliedActionsRepository } from '../../store/repositories/rate-applied-actions.repository';

export class RateAppliedActionsService {
  constructor(
    private readonly repository: RateAppliedActionsRepository,
    private readonly clock: Clock,
  ) {}
}
