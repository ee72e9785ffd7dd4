/**
 * The client side of a booking burst, run as its own process (bundled by the test or the
 * bench, run by plain node): argv[2] names a plan (JSON, `BurstPlan`), argv[3] the file the
 * answers are written to (JSON, `BurstAnswer[]`, in the plan's order).
 *
 * Why a process of its own, and more than one: 20,000 requests in flight at once are 20,000
 * sockets, and a process may open 20,000 files here (`ulimit -Hn`); the test's own process
 * would also share its event loop with the sockets it is timing. By default each client opens
 * one connection per request (no keep-alive, no pool limit), so every attempt is in flight at
 * once, as many people's phones would be; with `socketsPerServer`, as a reverse proxy would. It prints `ready` once its plan is read, and begins when
 * a line arrives on its standard input: the caller starts every client at once.
 */
import fs from 'node:fs';
import http from 'node:http';

export interface BurstPlan {
  /** Base URLs of the app processes. */
  servers: string[];
  /**
   * At most this many connections from this client to each process, kept alive, the requests
   * beyond them queued here and sent as answers come back: what a reverse proxy's upstream
   * pool does. Absent: one connection per request, every one opened at once.
   */
  socketsPerServer?: number;
  attempts: { server: number; cookie: string; body: unknown }[];
}

export interface BurstAnswer {
  /** HTTP status; 0 when the connection failed (then `error` says how). */
  status: number;
  /** Milliseconds from the request's start to the end of its answer. */
  ms: number;
  retryAfter: string | null;
  /** The refusal's message (409, 503), or the connection's error. */
  message?: string;
  error?: string;
}

const plan = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as BurstPlan;
const open = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const pooled = plan.socketsPerServer ? new http.Agent({ keepAlive: true, maxSockets: plan.socketsPerServer }) : undefined;
const agent = pooled ?? open;

function attempt(a: BurstPlan['attempts'][number]): Promise<BurstAnswer> {
  const base = new URL(plan.servers[a.server]!);
  const payload = JSON.stringify(a.body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: '/api/prenotazioni',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), origin: base.origin, cookie: a.cookie },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const answer: BurstAnswer = { status, ms: performance.now() - started, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null };
          if (status !== 201) {
            try {
              answer.message = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: string }).message;
            } catch {
              answer.message = Buffer.concat(chunks).toString('utf8').slice(0, 200);
            }
          }
          resolve(answer);
        });
        res.on('error', (err) => resolve({ status: 0, ms: performance.now() - started, retryAfter: null, error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ status: 0, ms: performance.now() - started, retryAfter: null, error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
    req.end(payload);
  });
}

process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const answers = await Promise.all(plan.attempts.map(attempt));
fs.writeFileSync(process.argv[3]!, JSON.stringify(answers));
process.exit(0);
