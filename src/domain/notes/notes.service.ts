import type { Clock } from '../../clock';
import type { NotesRepository } from '../../store/repositories/notes.repository';

export class NotesService {
  constructor(
    private readonly repository: NotesRepository,
    private readonly clock: Clock,
  ) {}
}
