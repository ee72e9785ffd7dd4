import { sql } from 'drizzle-orm';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { addDays, zonedToday } from '../../src/shared/time.js';
import { benchDatabase, listenApp, load } from './harness.js';
const bench = await benchDatabase();
const { database } = bench;
await database.db.execute(sql`insert into biciclette (numero, modello) select g::text, 'City' from generate_series(1, 50) g`);
await database.db.execute(sql`insert into users (nome, cognome, email, password_hash) values ('a','b','a@b.it','x')`);
const tomorrow = addDays(zonedToday(new Date(), 'Europe/Rome'), 1);
const body = { dataPrenotazione: tomorrow, orarioInizio: '10:00', orarioFine: '11:00' };
const { app, base } = await listenApp(database, bench.url);
const { token } = await createSession(database.db, 1, 'session', new Date());
for (const [name, url, method, b] of [['config', '/api/config', 'GET', undefined], ['current-user', '/api/current-user', 'GET', undefined], ['available', '/api/biciclette/available', 'POST', JSON.stringify(body)]] as const) {
  const c0 = process.cpuUsage();
  const r = await load(base + url, { connections: 50, seconds: 5, method, body: b, headers: { 'content-type': 'application/json', cookie: `bicielis_session=${token}` } });
  const c = process.cpuUsage(c0);
  console.log(name, Math.round(r.requestsPerSec), 'req/s', 'node cpu us/req', ((c.user + c.system) / (r.requestsPerSec * 5)).toFixed(0), 'p99', r.p99Ms);
}
await app.close();
await bench.close();
