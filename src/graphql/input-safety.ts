/*
 * No library does this (GraphQL Armor's plugins limit size and shape, not content): refusing NUL in
 * string literals, as every other input is refused, and keeping card numbers and other sensitive
 * values out of the errors and logs an operation causes.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  type ArgumentNode,
  type ASTNode,
  type ObjectFieldNode,
  type ValidationRule,
} from 'graphql';
import { redactValues, sensitiveFieldSpellings, sensitiveValues } from '../kernel/sensitive';
import { NUL_MESSAGE } from '../kernel/errors';

/**
 * String literals in an operation may not hold NUL (U+0000), as no request parameter may (the
 * request edge checks variables): PostgreSQL refuses it in text, and both stores must answer alike.
 */
export const noNulInStrings: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    if (!node.value.includes('\u0000')) return;
    // The argument or input field the string is given to: the parent, or above it in a list.
    const owner = [...ancestors, parent]
      .reverse()
      .find(
        (a): a is ArgumentNode | ObjectFieldNode =>
          a !== undefined &&
          !Array.isArray(a) &&
          ((a as ASTNode).kind === Kind.ARGUMENT || (a as ASTNode).kind === Kind.OBJECT_FIELD),
      );
    const subject = !owner
      ? 'A string'
      : `${owner.kind === Kind.ARGUMENT ? 'Argument' : 'Input field'} "${owner.name.value}"`;
    context.reportError(new GraphQLError(`${subject} ${NUL_MESSAGE}.`, { nodes: [node] }));
  },
});

const NAMES = sensitiveFieldSpellings().join('|');
/** `cardNumber: "4111..."` or `securityCode: 123` as written in an operation's text. */
const LITERAL = new RegExp(`\\b(?:${NAMES})\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|[-+.\\deE]+)`, 'g');

/** Values the operation's text gives sensitive arguments or input fields. */
function literalValues(query: string | undefined): Array<string | number> {
  if (!query) return [];
  const values: Array<string | number> = [];
  for (const match of query.matchAll(LITERAL)) {
    const literal = match[1];
    if (literal.startsWith('"')) {
      try {
        values.push(JSON.parse(literal) as string);
      } catch {
        values.push(literal.slice(1, -1));
      }
    } else {
      // A number is redacted as a word of its own.
      values.push(Number.isFinite(Number(literal)) ? Number(literal) : literal);
    }
  }
  return values;
}

/**
 * Card and bank values never come back in an error: graphql-js writes a variable's or literal's
 * value into its message ("got invalid value ..."), so every message and problem of an answer is
 * cleared of the values this request gave under a sensitive name, and of card-length digit runs.
 */
export const redactSensitiveValues: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ request, response }) {
        if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
        const values = [...sensitiveValues(request.variables), ...literalValues(request.query)];
        const redact = (text: string) => redactValues(text, values);
        response.body.singleResult.errors = response.body.singleResult.errors.map((error) => {
          const problems = (error.extensions as { problems?: unknown } | undefined)?.problems;
          return {
            ...error,
            message: redact(error.message),
            ...(Array.isArray(problems)
              ? {
                  extensions: {
                    ...error.extensions,
                    problems: problems.map((p: { parameter: string; message: string }) => ({
                      parameter: p.parameter,
                      message: redact(p.message),
                    })),
                  },
                }
              : {}),
          };
        });
      },
    };
  },
};
