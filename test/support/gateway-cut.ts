import {
  Kind,
  TypeInfo,
  print,
  validate,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * A stored operation cut down to what a schema can answer: fields, arguments and inline fragments
 * the schema lacks are dropped, then selections left empty and variables left unused. What remains
 * is the operation a front end would send to the gateway for the same data; null when nothing does.
 */
export function cutToSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: DocumentNode['definitions'],
): string | null {
  let document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [operation, ...fragments] };
  const typeInfo = new TypeInfo(schema);
  document = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: { enter: () => (typeInfo.getFieldDef() ? undefined : null) },
      Argument: { enter: () => (typeInfo.getArgument() ? undefined : null) },
      InlineFragment: {
        enter: (node) =>
          node.typeCondition && !schema.getType(node.typeCondition.name.value) ? null : undefined,
      },
    }),
  );
  // Selections emptied by the cut go too, bottom up, until none is left empty.
  for (let changed = true; changed;) {
    changed = false;
    document = visit(document, {
      Field: {
        leave: (node) =>
          node.selectionSet && node.selectionSet.selections.length === 0
            ? ((changed = true), null)
            : undefined,
      },
      InlineFragment: {
        leave: (node) => (node.selectionSet.selections.length === 0 ? ((changed = true), null) : undefined),
      },
    });
  }
  const op = document.definitions[0] as OperationDefinitionNode;
  if ((op.selectionSet as SelectionSetNode).selections.length === 0) return null;
  const used = new Set<string>();
  visit(op.selectionSet, { Variable: (node) => void used.add(node.name.value) });
  // Only the fragments still spread, directly or through another.
  const byName = new Map(
    document.definitions
      .slice(1)
      .map((d) => [(d as FragmentDefinitionNode).name.value, d as FragmentDefinitionNode]),
  );
  const spread = new Set<string>();
  const follow = (node: ASTNode) =>
    visit(node, {
      FragmentSpread: (s) => {
        if (spread.has(s.name.value)) return;
        spread.add(s.name.value);
        follow(byName.get(s.name.value)!);
      },
    });
  follow(op);
  document = {
    ...document,
    definitions: [
      { ...op, variableDefinitions: op.variableDefinitions?.filter((v) => used.has(v.variable.name.value)) },
      ...[...byName.values()].filter((f) => spread.has(f.name.value)),
    ],
  };
  const errors = validate(schema, document);
  if (errors.length > 0)
    throw new Error(`the cut of ${op.name?.value} does not validate: ${errors[0].message}`);
  return print(document);
}
