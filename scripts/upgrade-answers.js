#!/usr/bin/env node
/* global fetch */
/**
 * Records what a running facility-ops answers to a list of reads, for comparing releases across an
 * upgrade (docs/operations.md#upgrades):
 *
 *   node scripts/upgrade-answers.js <base url> <bearer token> <requests.json> <answers.json>
 *
 * requests.json is an array of paths (`/v1/...`, GET) or `{ "graphql": "<query>" }` objects (POST
 * /graphql). answers.json gets each request's status, content type and body, the body's request
 * ids replaced by "<request id>". Run it against the old release before the upgrade and against
 * the new one after it: the two files should be the same byte for byte (`cmp`). The upgrade test
 * (test/upgrade/upgrade.test.ts) compares a kept fixture's answers the same way.
 */
const fs = require('node:fs');

/** A body with its request ids (which differ on every request) replaced. */
function withoutRequestIds(text) {
  return text.replace(/"request_id":"[^"]*"/g, '"request_id":"<request id>"');
}

async function answer(base, token, request) {
  const graphql = typeof request === 'object' && request !== null;
  const response = await fetch(`${base}${graphql ? '/graphql' : request}`, {
    method: graphql ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(graphql ? { 'content-type': 'application/json' } : {}),
    },
    body: graphql ? JSON.stringify({ query: request.graphql }) : undefined,
  });
  return {
    request,
    status: response.status,
    content_type: response.headers.get('content-type'),
    body: withoutRequestIds(await response.text()),
  };
}

async function recordAnswers(base, token, requests) {
  const answers = [];
  for (const request of requests) answers.push(await answer(base, token, request));
  return answers;
}

module.exports = { recordAnswers, withoutRequestIds };

if (require.main === module) {
  const [base, token, requestsFile, out] = process.argv.slice(2);
  if (!out) {
    console.error(
      'usage: node scripts/upgrade-answers.js <base url> <bearer token> <requests.json> <answers.json>',
    );
    process.exit(2);
  }
  recordAnswers(base.replace(/\/$/, ''), token, JSON.parse(fs.readFileSync(requestsFile, 'utf8'))).then(
    (answers) => {
      fs.writeFileSync(out, `${JSON.stringify(answers, null, 1)}\n`);
      console.log(`${answers.length} answers written to ${out}`);
    },
    (error) => {
      console.error(`upgrade-answers: ${error.message}`);
      process.exit(1);
    },
  );
}
