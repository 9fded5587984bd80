/* global process */
// The Hive Gateway side of `npm run bench:gateway`: a supergraph composed from the upstream's OpenAPI
// document. bench/gateway.js sets the upstream's address and bearer token in the environment.
import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

const upstream = process.env.BENCH_UPSTREAM_URL;
export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('FacilityOps', {
        source: `${upstream}/v1/openapi.json`,
        endpoint: upstream,
        operationHeaders: { Authorization: `Bearer ${process.env.BENCH_UPSTREAM_TOKEN}` },
      }),
    },
  ],
  // A rate applied action names its new ledger but not its facility, which the ledger's path
  // needs: the field takes it as an argument, and @resolveTo calls getLedger for each action.
  additionalTypeDefs: /* GraphQL */ `
    extend type RateAppliedAction {
      new_ledger(facility_id: String!): getLedger_response
        @resolveTo(
          sourceName: "FacilityOps"
          sourceTypeName: "Query"
          sourceFieldName: "getLedger"
          requiredSelectionSet: "{ new_ledger_id }"
          sourceArgs: { facility_id: "{args.facility_id}", ledger_id: "{root.new_ledger_id}" }
        )
    }
  `,
});
