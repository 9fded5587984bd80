import type { Clock } from '../../clock';
import type { DocumentsRepository } from '../../store/repositories/documents.repository';

export class DocumentsService {
  constructor(
    private readonly repository: DocumentsRepository,
    private readonly clock: Clock,
  ) {}
}
