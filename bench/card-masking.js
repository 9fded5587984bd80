// Card masking benchmark (not a test): `node bench/card-masking.js [iterations]`.
// What finding card numbers by their value costs the text a request carries: the echo of an
// ordinary list request, its two log lines and its logged URL, next to the same holding a card
// number (only those go past the quick scan, to Luhn, the regular expression and, for a log line, a
// parse and rewrite). Each is printed in ns per call and as a multiple of JSON.stringify of the
// echo (which every answer pays), a yardstick that moves with the machine's load as they do.
require('../scripts/swc-register');
const { echoParameters } = require('../src/rest/envelope');
const { maskLogLine } = require('../src/logger');
const { redactRequestUrl } = require('../src/kernel/sensitive');

const iterations = Number(process.argv[2] ?? 200_000);
const facility = '7d1c3f7e-1111-4222-8333-944455556666';
const url = `/v1/${facility}/rate_changes?start_date=2026-01-01&end_date=2026-11-28&page=2&per_page=50`;
const query = { start_date: '2026-01-01', end_date: '2026-11-28', page: '2', per_page: '50' };
const note = { note: { note_text: 'Asked about a larger unit; call back after 5', ledger_id: facility } };
const noteWithCard = {
  note: { note_text: 'Card 4111 1111 1111 1111, call back after 5', ledger_id: facility },
};
const request = (body) => ({
  query: body ? {} : query,
  body,
  params: { facility_id: facility },
  envelope: { defaults: {} },
  routeConfig: {},
});
const line = (msg, extra) =>
  `{"level":30,"time":1764302515000,"pid":4242,"hostname":"app-1","reqId":"${facility}",${extra}"msg":"${msg}"}\n`;
const incoming = line(
  'incoming request',
  `"req":{"method":"GET","url":"${url}","remoteAddress":"127.0.0.1"},`,
);
const completed = line('request completed', '"res":{"statusCode":200},"responseTime":3.2874579429626465,');
const withCard = line('body received', `"body":${JSON.stringify(noteWithCard)},`);

function measure(run) {
  for (let i = 0; i < 10_000; i++) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) run();
  return Number(process.hrtime.bigint() - start) / iterations;
}

const cases = [
  ['echo of a list request', () => echoParameters(request(undefined))],
  ['echo of a note', () => echoParameters(request(note))],
  ['echo of a note with a card number', () => echoParameters(request(noteWithCard))],
  ['log line: incoming request', () => maskLogLine(incoming)],
  ['log line: request completed', () => maskLogLine(completed)],
  ['log line with a card number', () => maskLogLine(withCard)],
  ['logged URL of a list request', () => redactRequestUrl(url)],
  ['logged URL with a card number', () => redactRequestUrl(`${url}&x=4111%201111%201111%201111`)],
];
const echo = { facility_id: facility, ...query };
const yardstick = measure(() => JSON.stringify(echo));
console.log(`${'JSON.stringify of the echo (yardstick)'.padEnd(42)} ${yardstick.toFixed(0).padStart(7)} ns`);
for (const [label, run] of cases) {
  const ns = measure(run);
  console.log(
    `${label.padEnd(42)} ${ns.toFixed(0).padStart(7)} ns  ${(ns / yardstick).toFixed(2).padStart(6)} x`,
  );
}
