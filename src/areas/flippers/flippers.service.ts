import type { FlippersRepository } from './flippers.ports';
import type { Facility } from '../facilities/facilities.types';

/** Feature flags: enabled for a facility when enabled globally, for its company, or for it. */
export class FlippersService {
  constructor(private readonly flippers: FlippersRepository) {}

  enabledFlippers(facility: Facility): Promise<string[]> {
    return this.flippers.enabledNames(facility.id, facility.companyId);
  }

  /** An unknown flag name answers false. */
  isEnabled(facility: Facility, name: string): Promise<boolean> {
    return this.flippers.isEnabled(name, facility.id, facility.companyId);
  }
}
