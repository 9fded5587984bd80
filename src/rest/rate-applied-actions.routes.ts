import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export function registerRateAppliedActionsRoutes(_app: FastifyInstance, _services: Services): void {}
