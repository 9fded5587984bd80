import type { Config } from '../config';
import { startTracing, type ActiveTracing } from '../telemetry/tracing';

/** Starts tracing when the OTEL_* settings ask for it (docs/operations.md#tracing); null otherwise. */
export function startConfiguredTracing(config: Config): ActiveTracing | null {
  if (config.tracing === null) return null;
  return startTracing({
    serviceName: config.tracing.serviceName,
    tracesEndpoint: config.tracing.tracesEndpoint,
    headers: { ...config.tracing.headers },
  });
}
