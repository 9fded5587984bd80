import type { tenants, units } from './tenants.tables';
import type { RecordOfTable } from '../../kernel/columns';

/** A tenant of a facility (the contract shows only ids; these are the fields the store keeps). */
export type Tenant = RecordOfTable<typeof tenants>;

/** A rentable unit of a facility, its monthly rate in cents. */
export type Unit = RecordOfTable<typeof units>;
