/**
 * Accounts benchmark (issue 3): POST /api/login throughput and p99 with 20 concurrent
 * clients (each login verifies an argon2id hash: 64 MiB, t=4 — decision 005), and
 * GET /api/current-user with a valid session (target ≥ 3,000 req/s).
 */
import { sql } from 'drizzle-orm';
import { verifyPassword, hashPassword } from '../../src/server/modules/auth/password.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { benchDatabase, fmt, listenApp, load } from './harness.js';

const PASSWORD = 'bench-password-2026';

export async function benchLogin(): Promise<boolean> {
  const bench = await benchDatabase();
  const { database } = bench;
  try {
    const hash = await hashPassword(PASSWORD);
    // One verification alone, to show the cost chosen.
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await verifyPassword(hash, PASSWORD);
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    const single = samples[5]!;
    await database.db.execute(sql`
      insert into users (nome, cognome, email, password_hash)
      select 'Utente', 'N' || g, 'login' || g || '@example.it', ${hash} from generate_series(1, 50) g`);
    const { app, base } = await listenApp(database, bench.url);
    const { token } = await createSession(database.db, 1, 'session', new Date());

    const login = await load(`${base}/api/login`, {
      connections: 20,
      seconds: 10,
      method: 'POST',
      body: JSON.stringify({ email: 'login1@example.it', password: PASSWORD }),
      headers: { 'content-type': 'application/json' },
    });
    const current = await load(`${base}/api/current-user`, {
      connections: 50,
      seconds: 10,
      headers: { cookie: `bicielis_session=${token}` },
    });
    await app.close();

    console.log('\n## Accounts');
    const okSingle = single >= 50 && single <= 250;
    console.log(`${okSingle ? 'PASS' : 'FAIL'}  one argon2id verification (64 MiB, t=4, p=1): ${single.toFixed(1)} ms (target 50–250 ms)`);
    console.log(
      `      POST /api/login, 20 clients, 10 s: ${fmt(login.requestsPerSec, 1)} logins/s, p50 ${login.p50Ms} ms, p99 ${login.p99Ms} ms, non-2xx ${login.non2xx}`,
    );
    const okCurrent = current.requestsPerSec >= 3000 && current.non2xx === 0;
    console.log(
      `${okCurrent ? 'PASS' : 'FAIL'}  GET /api/current-user, 50 clients, 10 s: ${fmt(current.requestsPerSec)} req/s (target ≥ 3,000), p99 ${current.p99Ms} ms, non-2xx ${current.non2xx}`,
    );
    return okSingle && okCurrent && login.non2xx === 0;
  } finally {
    await bench.close();
  }
}
