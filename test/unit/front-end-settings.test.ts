import { loadConfig } from '../../src/config';
import { configProblems } from '../cli/cli-support';

describe('front-end settings: TRUSTED_DOCUMENTS, GRAPHQL_MAX_COST and the OTEL_* variables', () => {
  it('defaults to allow, a cost of 20000 and no tracing', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.trustedDocuments).toBe('allow');
    expect(config.graphqlMaxCost).toBe(20_000);
    expect(config.tracing).toBeNull();
  });

  it('reads the standard OpenTelemetry variables', () => {
    const base = loadConfig({
      NODE_ENV: 'test',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'ops-eu',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret,X-Team=ops',
    });
    expect(base.tracing).toEqual({
      tracesEndpoint: 'http://collector:4318/v1/traces',
      serviceName: 'ops-eu',
      headers: { 'api-key': 's=cret', 'x-team': 'ops' },
    });
    const tracesOnly = loadConfig({
      NODE_ENV: 'test',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/in',
    });
    expect(tracesOnly.tracing?.tracesEndpoint).toBe('https://traces.example.com/in');
    expect(
      loadConfig({
        NODE_ENV: 'test',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_SDK_DISABLED: 'true',
      }).tracing,
    ).toBeNull();
    expect(
      loadConfig({
        NODE_ENV: 'test',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_TRACES_EXPORTER: 'none',
      }).tracing,
    ).toBeNull();
    // Without an endpoint the other OTEL_* variables are not this service's concern.
    expect(loadConfig({ NODE_ENV: 'test', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).tracing).toBeNull();
  });

  it('lists every bad value, naming the setting, and never a header value', () => {
    expect(
      configProblems({
        TRUSTED_DOCUMENTS: 'sometimes',
        GRAPHQL_MAX_COST: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_EXPORTER: 'zipkin',
        OTEL_EXPORTER_OTLP_HEADERS: 'ok=1,=hunter2',
        OTEL_SDK_DISABLED: 'maybe',
      }),
    ).toEqual([
      'TRUSTED_DOCUMENTS: expected off, allow or require, got "sometimes"',
      'OTEL_SDK_DISABLED: expected true or false, got "maybe"',
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http:// or https:// URL, got "collector:4318"',
      'OTEL_EXPORTER_OTLP_PROTOCOL: only http/json is sent (OTLP over HTTP with JSON), got "grpc"',
      'OTEL_TRACES_EXPORTER: expected otlp or none, got "zipkin"',
      'OTEL_EXPORTER_OTLP_HEADERS: expected name=value pairs separated by commas, got a pair named ""',
      'GRAPHQL_MAX_COST: expected a whole number from 1 to 100000000, got "0"',
    ]);
  });
});
