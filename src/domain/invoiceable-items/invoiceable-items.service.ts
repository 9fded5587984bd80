import type { Clock } from '../../clock';
import type { InvoiceableItemsRepository } from '../../store/repositories/invoiceable-items.repository';

export class InvoiceableItemsService {
  constructor(
    private readonly repository: InvoiceableItemsRepository,
    private readonly clock: Clock,
  ) {}
}
