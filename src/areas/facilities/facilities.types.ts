import type { companies, facilities } from './facilities.tables';
import type { RecordOfTable } from '../../kernel/columns';

export type Facility = RecordOfTable<typeof facilities>;

export type Company = RecordOfTable<typeof companies>;
