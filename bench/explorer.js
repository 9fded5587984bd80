// The GraphQL explorer's first load: the built service (dist) on loopback, Debian's Chromium
// (playwright-core, headless) with a cold cache each round, from navigation to GraphiQL's query
// editor shown, and what went over the wire (brotli). `npm run build && node bench/explorer.js
// [--rounds 5]`; CHROMIUM_PATH names another browser. Prints one Markdown table (docs/graphql.md).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { ROOT, fmt, median, parseOptions, startService, loadAverage } = require('./common');

async function main() {
  const options = parseOptions(process.argv.slice(2), { rounds: 5, dist: path.join(ROOT, 'dist') });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-bench-'));
  const { child, address } = await startService(options.dist, {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const rounds = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      // A new context each round: an empty cache, as a first visit has.
      const context = await browser.newContext();
      let bytes = 0;
      // The page's and its workers' answers, as sent (compressed).
      context.on('response', (response) => {
        bytes += Number(response.headers()['content-length'] ?? 0);
      });
      const page = await context.newPage();
      const started = Date.now();
      await page.goto(`${address}/graphql`);
      await page.locator('.graphiql-query-editor .monaco-editor').waitFor({ timeout: 120_000 });
      const editor = Date.now() - started;
      const load = await page.evaluate('performance.getEntriesByType("navigation")[0].loadEventEnd');
      rounds.push({ editor, load, bytes });
      await context.close();
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const ms = (values) =>
    `${fmt(median(values))} ms (${fmt(Math.min(...values))}-${fmt(Math.max(...values))})`;
  process.stdout.write(
    [
      `| measure (median of ${rounds.length} cold loads, min-max) | value |`,
      '| --- | --- |',
      `| navigation to \`load\` | ${ms(rounds.map((r) => r.load))} |`,
      `| navigation to the query editor shown | ${ms(rounds.map((r) => r.editor))} |`,
      `| bytes received (brotli, page and bundle) | ${fmt(median(rounds.map((r) => r.bytes)) / 1e6, 2)} MB |`,
      `| load average (1/5/15 min) | ${loadAverage()} |`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
