/**
 * The load generator, run as its own process by `harness.ts` (`load`) so that it never
 * shares the server's event loop. It reads a plan (JSON file named by argv[2]), drives
 * autocannon through its programmatic API and prints autocannon's summary as JSON.
 *
 * Per-request variety: `bodies` (picked at random, or in order with `bodyOrder: 'sequence'`)
 * and `cookies` (picked at random, or in the same order as the bodies with
 * `cookieOrder: 'sequence'`: request n sends body n and cookie n), or `cookieOrder: 'connection'`:
 * connection n keeps cookie n for all its requests (one person, one session), each connection's
 * request built once, as a ceiling's is (issue 33: rebuilding every request to put a cookie in
 * it cost the generator ~6 µs more per request than the ceiling's, on the same two cores).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface LoadPlan {
  url: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  seconds: number;
  /** Total requests, then stop. */
  amount?: number;
  method: string;
  headers: Record<string, string>;
  bodies?: string[];
  bodyOrder?: 'random' | 'sequence';
  cookies?: string[];
  cookieOrder?: 'random' | 'sequence' | 'connection';
}

interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

type Autocannon = (
  opts: Record<string, unknown>,
  cb: (err: unknown, result: unknown) => void,
) => unknown;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const plan = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadPlan;

let n = 0;
const pick = <T>(list: T[], order: 'random' | 'sequence' | 'connection' | undefined, i: number): T =>
  order === 'sequence' ? list[i % list.length]! : list[Math.floor(Math.random() * list.length)]!;

const perConnection = plan.cookieOrder === 'connection' && plan.cookies && !plan.bodies;
let connection = 0;
/** Each connection its own cookie, set once (autocannon keeps the built request). */
const setupClient = perConnection
  ? (client: { setHeaders(headers: Record<string, string>): void }) =>
      client.setHeaders({ ...plan.headers, cookie: plan.cookies![connection++ % plan.cookies!.length]! })
  : undefined;

const requests =
  !perConnection && (plan.bodies || plan.cookies)
    ? [
        {
          setupRequest(req: AutocannonRequest): AutocannonRequest {
            const i = n++;
            const headers = { ...plan.headers };
            if (plan.cookies) headers.cookie = pick(plan.cookies, plan.cookieOrder, i);
            return {
              ...req,
              method: plan.method,
              headers,
              ...(plan.bodies ? { body: pick(plan.bodies, plan.bodyOrder, i) } : {}),
            };
          },
        },
      ]
    : undefined;

autocannon(
  {
    url: plan.url,
    connections: plan.connections,
    ...(plan.amount ? { amount: plan.amount } : { duration: plan.seconds }),
    method: plan.method,
    headers: plan.headers,
    ...(requests ? { requests } : {}),
    ...(setupClient ? { setupClient } : {}),
  },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(result));
  },
);
