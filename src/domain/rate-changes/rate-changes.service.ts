import type { Clock } from '../../clock';
import type { RateChangesRepository } from '../../store/repositories/rate-changes.repository';

export class RateChangesService {
  constructor(
    private readonly repository: RateChangesRepository,
    private readonly clock: Clock,
  ) {}
}
