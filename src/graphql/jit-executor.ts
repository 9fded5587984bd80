import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  execute,
  GraphQLError,
  getVariableValues,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type OperationDefinitionNode,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;
type GatewayRequest = Parameters<GatewayExecutor>[0];

/**
 * graphql-jit's errors are GraphQLErrors without the `extensions` object graphql-js always sets,
 * which Apollo's error formatting reads: the same error, as graphql-js makes it.
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  const copy = new GraphQLError(error.message, {
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions ?? undefined,
  });
  // The compiled query knows the locations but not the nodes graphql-js derives them from.
  Object.defineProperty(copy, 'locations', {
    value: error.locations,
    enumerable: error.locations !== undefined,
  });
  return copy;
}

/**
 * Runs operations with graphql-jit (each document compiled once to JavaScript) instead of
 * graphql-js's interpreter, through Apollo's gateway hook, the one way Apollo Server 5 takes
 * another executor. Everything before execution stays Apollo's: parsing, validation (with the
 * query limits), the document cache, persisted queries, error formatting. Variables are coerced
 * by graphql-js first, so their errors read exactly as without the compiler.
 */
export function jitGateway(schema: GraphQLSchema): Gateway {
  // Keyed by the DocumentNode, which Apollo's document cache hands back for the same query text.
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

  function compiledFor(document: DocumentNode, operationName: string | null): CompiledQuery | null {
    let byName = compiled.get(document);
    if (!byName) {
      byName = new Map();
      compiled.set(document, byName);
    }
    const key = operationName ?? '';
    let query = byName.get(key);
    if (query === undefined) {
      const result = compileQuery(schema, document, operationName ?? undefined);
      // What the compiler refuses, graphql-js runs (null marks it).
      query = isCompiledQuery(result) ? result : null;
      byName.set(key, query);
    }
    return query;
  }

  async function executor(requestContext: GatewayRequest): Promise<ExecutionResult> {
    const { document, operationName, request, context } = requestContext;
    // Typed as always there, but undefined when Apollo could not choose one.
    const operation: OperationDefinitionNode | undefined = requestContext.operation;
    // No operation to run (an operationName the document does not hold, or several operations and
    // no name): graphql-js names the problem without running anything, and Apollo answers it as
    // the caller's error (400 OPERATION_RESOLUTION_FAILURE), as with its own executor.
    if (!operation) {
      return execute({ schema, document, operationName: request.operationName, contextValue: context });
    }
    const variables = request.variables ?? {};
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, {
      maxErrors: 50,
    });
    if (coerced.errors) return { errors: coerced.errors };
    const query = compiledFor(document, operationName);
    if (query === null) {
      return execute({ schema, document, operationName, variableValues: variables, contextValue: context });
    }
    const result = await query.query(undefined, context, variables);
    return result.errors ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  }

  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    async stop() {},
  };
}
