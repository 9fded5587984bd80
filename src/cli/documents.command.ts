import fs from 'node:fs';
import type { Config } from '../config';
import { isUuid, normalizeId } from '../kernel/ids';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule } from '../graphql/limits';
import { noNulInStrings } from '../graphql/input-safety';
import { gatewayGraphqlSchema, graphqlSchema, subgraphGraphqlSchema } from '../modules';
import { MAX_TOKENS } from '../graphql/server';
import { checkManifest } from '../graphql/trusted-documents';
import type { Store } from '../store/database';
import { hasClientApplication } from '../store/lookups';
import { SqlTrustedDocumentsRepository } from '../store/repositories/trusted-documents.repository';
import { CommandFailure, parseCommandArgs, UsageError } from './args';
import { withMigratedStore } from './context';
import type { CliIo } from './io';

const ACTIONS = ['load', 'list'] as const;
type Action = (typeof ACTIONS)[number];

/** Problems of a refused manifest shown before "... and N more". */
const SHOWN_PROBLEMS = 50;

/**
 * `documents load --client <id> <manifest.json>` and `documents list --client <id> [--json]`: the
 * GraphQL documents a client application's front end is known to send (TRUSTED_DOCUMENTS).
 */
export async function documentsCommand(config: Config, io: CliIo, argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      action
        ? `unknown documents action "${action}" (${ACTIONS.join(', ')})`
        : `documents needs an action: ${ACTIONS.join(', ')}`,
    );
  }
  const { values, positionals } = parseCommandArgs(
    rest,
    { client: { type: 'string' }, json: { type: 'boolean' } },
    action === 'load' ? 1 : 0,
  );
  if (typeof values.client !== 'string' || values.client === '')
    throw new UsageError('--client <id> is required');
  if (!isUuid(values.client))
    throw new UsageError(`--client must be a client application id (a UUID), got "${values.client}"`);
  const clientId = normalizeId(values.client);
  if (action === 'list') {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return withMigratedStore(config, io, async (store) => {
      await requireClient(store, clientId);
      const documents = await new SqlTrustedDocumentsRepository(store.db).list(clientId);
      if (values.json) {
        io.out(
          JSON.stringify(
            documents.map((d) => ({
              document_id: d.documentId,
              operation_names: d.operationNames,
              created_at: d.createdAt,
            })),
          ),
        );
      } else if (documents.length === 0) {
        io.out(`client application ${clientId} has no trusted documents`);
      } else {
        for (const d of documents) {
          io.out(`${d.documentId}  ${d.operationNames.join(', ') || '(anonymous)'}  ${d.createdAt}`);
        }
      }
      return 0;
    });
  }
  if (values.json) throw new UsageError('--json is for documents list');
  const file = positionals[0];
  if (file === undefined) throw new UsageError('documents load needs a manifest file');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CommandFailure(code === 'ENOENT' ? `no file ${file}` : `cannot read ${file} (${code})`);
  }
  // Documents are checked against the graph this instance serves (gateway mode serves a part of
  // it; a subgraph answers `_entities` and `_service` too).
  const schema = config.upstream
    ? gatewayGraphqlSchema()
    : config.graphqlFederation === 'on'
      ? subgraphGraphqlSchema()
      : graphqlSchema();
  const check = checkManifest(text, schema, [queryLimitsRule(DEFAULT_QUERY_LIMITS), noNulInStrings], {
    maxTokens: MAX_TOKENS,
    now: (io.now?.() ?? new Date()).toISOString(),
  });
  if (check.problems.length > 0) {
    const count = check.problems.length;
    throw new CommandFailure(
      `manifest ${file} refused, nothing was written (${count} problem${count === 1 ? '' : 's'}):`,
      [
        ...check.problems.slice(0, SHOWN_PROBLEMS),
        ...(count > SHOWN_PROBLEMS ? [`... and ${count - SHOWN_PROBLEMS} more`] : []),
      ],
    );
  }
  return withMigratedStore(config, io, async (store) => {
    await requireClient(store, clientId);
    const added = await new SqlTrustedDocumentsRepository(store.db).add(clientId, check.documents);
    const total = check.documents.length;
    io.out(
      `loaded ${total} document${total === 1 ? '' : 's'} for client application ${clientId} ` +
        `(${added} new, ${total - added} already known)`,
    );
    return 0;
  });
}

async function requireClient(store: Store, clientId: string): Promise<void> {
  if (!(await hasClientApplication(store, clientId)))
    throw new CommandFailure(`no client application ${clientId}: make one with facility-ops clients create`);
}
