import type { Clock } from '../../clock';
import type { LedgersRepository } from '../../store/repositories/ledgers.repository';

export class LedgersService {
  constructor(
    private readonly repository: LedgersRepository,
    private readonly clock: Clock,
  ) {}
}
