import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An email as the loopback SMTP server received it. */
export interface ReceivedEmail {
  from: string;
  to: string[];
  raw: string;
  /** Unfolded top-level headers, names lower-cased. */
  headers: Record<string, string>;
}

function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export interface SmtpBehaviour {
  /** Refuse every recipient with this reply code (550: no such user). */
  refuseRecipients?: number;
  /** Accept the data but never answer it, so the client waits. */
  hangAfterData?: boolean;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedEmail[];
  /** RCPT TO commands seen, refused ones included. */
  recipientsTried: string[];
  close(): Promise<void>;
}

/** A real SMTP server on a free loopback port (no TLS, no authentication). */
export async function startSmtpServer(behaviour: SmtpBehaviour = {}): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const recipientsTried: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Hung sessions are dropped this soon after close().
    closeTimeout: 50,
    onRcptTo(address, _session, callback) {
      recipientsTried.push(address.address);
      if (behaviour.refuseRecipients) {
        const error = new Error(`No such user here: ${address.address}`) as Error & { responseCode: number };
        error.responseCode = behaviour.refuseRecipients;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (behaviour.hangAfterData) return;
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          headers: parseHeaders(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    recipientsTried,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word (no SMTP greeting). */
export async function startSilentServer(): Promise<{
  url: string;
  connections: number;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server = createNetServer((socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A request as the SMS provider received it. */
export interface ReceivedSms {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the provider does with the n-th request (0-based): answer with a status, or never. */
export type SmsAnswer = { status: number; body?: string } | 'hang';

export interface TestSmsProvider {
  url: string;
  received: ReceivedSms[];
  close(): Promise<void>;
}

export async function startSmsProvider(
  answer: (index: number) => SmsAnswer = () => ({ status: 202 }),
): Promise<TestSmsProvider> {
  const received: ReceivedSms[] = [];
  const hung: ServerResponse[] = [];
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = received.length;
      received.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const reply = answer(index);
      if (reply === 'hang') {
        hung.push(response);
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body ?? JSON.stringify({ accepted: reply.status < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
