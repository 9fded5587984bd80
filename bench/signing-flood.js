'use strict';
/* global fetch */
// A flood of the public signing page (not a test): `node bench/signing-flood.js [options]`.
//
// Starts `bin/facility-ops.js start` of a built checkout (`--service`, this one by default; build it
// first with `npm run build`) on a temporary SQLite database holding the demo data, queues one e-sign
// message through REST, reads its link from the outbox (no transport is configured, so the message
// keeps it), then keeps `--parallel` submissions of one drawing in flight for `--seconds` while
// probing GET /healthz one request at a time, and prints the probes' latency (p50, p99, max) and
// the submissions' answers.
//
//   --image huge     an opaque white 4096 x 4096 PNG (about 70 KB), refused as empty: what issue 23 reported
//   --image heavy    an opaque white 2000 x 1000 PNG: within the pixel budget, decoded in full
//   --image signature  a transparent 1800 x 900 drawing with ink, the largest the page exports, each
//                    submission on a link of its own (one per move-in event of the demo facility with
//                    esignable documents), so every one is decoded, stamped on the PDFs, sealed and
//                    stored: `--parallel` signings at once until the links run out
//   --quiet          no submissions: /healthz alone, the baseline the flood is compared with
//   --limits         keep the signing rate limits on (off by default, so every submission is decoded)
//   --service <dir>  the checkout to run, e.g. a worktree of an older commit
//   --profile <dir>  write the service's CPU profile (node --cpu-prof) into that directory
const { Buffer } = require('node:buffer');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');
const { URLSearchParams } = require('node:url');
const { crc32, deflateSync } = require('node:zlib');
const Database = require('better-sqlite3');
const { ROOT, log, fmt, loadAverage, parseOptions } = require('./common');

const options = parseOptions(process.argv.slice(2), {
  service: ROOT,
  image: 'huge',
  parallel: 8,
  seconds: 10,
  limits: false,
  quiet: false,
  profile: '',
});
const parallel = options.quiet ? 0 : options.parallel;

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A drawn signature as the page exports its largest: 1800 x 900, transparent RGBA, strokes five
 * pixels wide whose every pixel has its own shade and opacity (as a pressure-sensitive pen's
 * anti-aliased ink), so it compresses little: about 240 KB of PNG, near the 256 KiB taken.
 */
function drawingPng(width, height) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height);
  let seed = 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const dot = (x, y) => {
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        const p = py * stride + 1 + px * 4;
        const shade = Math.floor(random() * 60);
        raw[p] = shade;
        raw[p + 1] = shade;
        raw[p + 2] = shade + Math.floor(random() * 30);
        raw[p + 3] = 128 + Math.floor(random() * 128);
      }
    }
  };
  // Two lines of loops across the pad, as a signature of a first and a last name.
  const steps = 40000;
  for (const line of [0.3, 0.7]) {
    for (let t = 0; t < steps; t++) {
      const s = t / steps;
      dot(
        width * (0.05 + 0.9 * s) + 70 * Math.sin(s * 90),
        height * (line + 0.25 * Math.sin(s * 23 + line * 10) * Math.cos(s * 7)),
      );
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An opaque white RGBA PNG: no ink, so the service decodes all of it and answers 422. */
function whitePng(width, height) {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height, 0xff);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // no filter
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });

/** `facility-ops start` in a child process; resolves with the demo client's bearer token once it serves. */
function startService(dir, env) {
  const profile = options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.profile)] : [];
  const child = spawn(
    process.execPath,
    [...profile, path.join(options.service, 'bin/facility-ops.js'), 'start'],
    {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (data) => {
      output += data;
      const token = /^\s*bearer token\s+(\S+)$/m.exec(output);
      if (token && output.includes('Stop it with')) resolve({ child, bearer: token[1], output });
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}:\n${output}`)));
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

async function main() {
  if (!['huge', 'heavy', 'signature'].includes(options.image)) {
    throw new Error('--image is huge, heavy or signature');
  }
  options.service = path.resolve(options.service);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signing-flood-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const limits = options.limits
    ? {}
    : { SIGNING_RATE_LIMIT_PER_ADDRESS: '0', SIGNING_RATE_LIMIT_PER_TOKEN: '0' };
  const { child, bearer } = await startService(dir, {
    DATABASE_URL: `sqlite:${path.join(dir, 'flood.db')}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    LOG_LEVEL: 'warn',
    ...limits,
  });
  try {
    // The documents of demo move-ins, sent for signing: first-requests.md names one (and its facility).
    const requests = fs.readFileSync(path.join(dir, 'first-requests.md'), 'utf8');
    const [, facilityPath, firstEvent] =
      /"\$BASE(\/v1\/[^"]+)\/documents\/([^/"]+)\/send_esignable_documents"/.exec(requests);
    const db = new Database(path.join(dir, 'flood.db'), { readonly: true });
    // The tokens of every link message in the outbox (no transport is configured, so each keeps its text).
    const linkTokens = () =>
      new Set(
        db
          .prepare('SELECT payload FROM outbox_messages')
          .all()
          .flatMap(({ payload }) => [...payload.matchAll(/\/sign\/([A-Za-z0-9_-]{43})/g)].map((m) => m[1])),
      );
    const before = linkTokens();
    const sendLink = async (eventId) => {
      const sent = await fetch(`${base}${facilityPath}/documents/${eventId}/send_esignable_documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'tenant@example.com' }),
      });
      if (sent.status !== 200) throw new Error(`send_esignable_documents answered ${sent.status}`);
    };
    if (options.image === 'signature') {
      // Every move-in of the facility with esignable documents, a link each: each is signed once.
      const facilityId = /^\/v1\/([^/]+)/.exec(facilityPath)[1];
      const events = db
        .prepare(
          `SELECT DISTINCT events.id AS id FROM events
             JOIN event_documents ON event_documents.event_id = events.id
            WHERE events.facility_id = ? AND event_documents.esignable = 1`,
        )
        .all(facilityId);
      for (const { id } of events) await sendLink(id);
    } else {
      await sendLink(firstEvent);
    }
    const tokens = [...linkTokens()].filter((token) => !before.has(token));
    db.close();

    const image =
      options.image === 'huge'
        ? whitePng(4096, 4096)
        : options.image === 'heavy'
          ? whitePng(2000, 1000)
          : drawingPng(1800, 900);
    const body = new URLSearchParams({
      name: 'Flood Test',
      consent: 'yes',
      signature: `data:image/png;base64,${image.toString('base64')}`,
    }).toString();
    log(
      `${options.service}: ${parallel} submissions of a ${options.image} PNG ` +
        `(${fmt(image.length / 1024)} KB) in flight for ${options.seconds} s` +
        `${options.image === 'signature' ? `, while ${tokens.length} links last` : ''}, ` +
        `rate limits ${options.limits ? 'on' : 'off'}; load ${loadAverage()}`,
    );

    const until = Date.now() + options.seconds * 1000;
    const statuses = {};
    const durations = [];
    let next = 0;
    let flooding = parallel;
    const submitter = async () => {
      while (Date.now() < until) {
        let token = tokens[0];
        if (options.image === 'signature') {
          if (next >= tokens.length) break;
          token = tokens[next++];
        }
        const started = performance.now();
        const res = await fetch(`${base}/sign/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
          body,
          redirect: 'manual',
        });
        await res.arrayBuffer();
        durations.push(performance.now() - started);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
      flooding -= 1;
    };
    const probes = [];
    const prober = async () => {
      // The flood gets going first.
      if (parallel > 0) await sleep(200);
      // Probes count only while every submitter is still at work (the links may run out first).
      while (Date.now() < until && (parallel === 0 || flooding === parallel)) {
        const started = performance.now();
        const res = await fetch(`${base}/healthz`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
        probes.push(performance.now() - started);
        await sleep(10);
      }
    };
    await Promise.all([prober(), ...Array.from({ length: parallel }, submitter)]);

    probes.sort((a, b) => a - b);
    durations.sort((a, b) => a - b);
    const ms = (n) => (n === undefined ? '-' : `${fmt(n, 1)} ms`);
    const result = {
      probes: probes.length,
      p50: ms(quantile(probes, 0.5)),
      p99: ms(quantile(probes, 0.99)),
      max: ms(probes[probes.length - 1]),
      submissions: durations.length,
      statuses,
      submissionP50: ms(quantile(durations, 0.5)),
    };
    log(
      `/healthz (${result.probes} probes): p50 ${result.p50}, p99 ${result.p99}, max ${result.max}; ` +
        `submissions: ${result.submissions} (${Object.entries(statuses)
          .map(([status, n]) => `${n} x ${status}`)
          .join(', ')}), p50 ${result.submissionP50} each`,
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  log(error.stack);
  process.exit(1);
});
