import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';

export function registerLedgersRoutes(_app: FastifyInstance, _services: Services): void {}
