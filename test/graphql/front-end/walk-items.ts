// A front end's walk of a connection, as docs/graphql.md shows it: the typed document GraphQL Code
// Generator's client preset wrote (test/generated/persisted/), sent by its persisted id.
import {
  InvoiceableItemsConnectionDocument,
  type InvoiceableItemsConnectionQuery,
  type InvoiceableItemsConnectionQueryVariables,
} from '../../generated/persisted/graphql';

/** Sends a persisted document's id and variables (POST /graphql); the answer's JSON. */
export type Send = <TData>(body: {
  documentId: string;
  variables: unknown;
}) => Promise<{ data?: TData | null; errors?: Array<{ message: string }> }>;

type Item = NonNullable<
  InvoiceableItemsConnectionQuery['facility']
>['invoiceableItemsConnection']['edges'][number]['node'];

/** Every item of a facility's list, `pageSize` a request, each request after the last one's cursor. */
export async function* walkItems(send: Send, facilityId: string, pageSize = 25): AsyncGenerator<Item> {
  // The client preset writes the document's id beside it (persistedDocuments: true).
  const documentId = (InvoiceableItemsConnectionDocument as unknown as { __meta__: { hash: string } })
    .__meta__.hash;
  let after: string | null = null;
  for (;;) {
    const variables: InvoiceableItemsConnectionQueryVariables = { id: facilityId, first: pageSize, after };
    const answer = await send<InvoiceableItemsConnectionQuery>({ documentId, variables });
    if (answer.errors || !answer.data?.facility)
      throw new Error(answer.errors?.[0]?.message ?? 'no facility');
    const { edges, pageInfo } = answer.data.facility.invoiceableItemsConnection;
    for (const edge of edges) yield edge.node;
    if (!pageInfo.hasNextPage) return;
    after = pageInfo.endCursor;
  }
}
