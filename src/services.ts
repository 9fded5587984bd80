import { AuthService } from './auth/auth.service';
import type { Clock } from './clock';
import type { Config } from './config';
import { FacilitiesService } from './domain/facilities/facilities.service';
import { FlippersService } from './domain/flippers/flippers.service';
import type { Store } from './store/database';
import { ClientsRepository } from './store/repositories/clients.repository';
import { FacilitiesRepository } from './store/repositories/facilities.repository';
import { FlippersRepository } from './store/repositories/flippers.repository';

/** Every domain service, built once per process over one store; both transports use these. */
export interface Services {
  readonly store: Store;
  readonly clock: Clock;
  readonly auth: AuthService;
  readonly facilities: FacilitiesService;
  readonly flippers: FlippersService;
}

export function createServices(store: Store, clock: Clock, config: Pick<Config, 'oauthWindowSeconds'>): Services {
  const db = store.db;
  return {
    store,
    clock,
    auth: new AuthService(new ClientsRepository(db), clock, config.oauthWindowSeconds),
    facilities: new FacilitiesService(new FacilitiesRepository(db), clock),
    flippers: new FlippersService(new FlippersRepository(db)),
  };
}
