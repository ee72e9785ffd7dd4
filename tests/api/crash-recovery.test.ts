import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/server/seed/seed.js';
import type { PublicRulesDto } from '../../src/shared/schemas/rules.js';
import { allowedDay, fromPublicRules } from '../helpers/days.js';
import { freePort, isAlive, readPostmasterPid, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-crash-'));
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const s of servers) {
    stopGroup(s.child, 'SIGTERM');
    await waitForExit(s.child).catch(() => stopGroup(s.child, 'SIGKILL'));
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const port = String(await freePort());
  // The real entry point, run from source so this test needs no build.
  const server = await startServer(['node', '--import', 'tsx', 'src/server/main.ts'], {
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: 'true',
  });
  servers.push(server);
  return server;
}

async function login(server: ServerProcess) {
  // The demo external: the demo resident is on a ride already (the demo data has one).
  const account = DEMO_ACCOUNTS.find((a) => a.ruolo === 'user' && !a.sigla)!;
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

describe('crash recovery', () => {
  it('after kill -9 of the app, the next start comes up with the data there', { timeout: 120_000 }, async () => {
    const first = await start();
    const cookie = await login(first);
    // A day the demo's rules allow (its closure next month is skipped), as the booking form reads them.
    const rules = (await (await fetch(`${first.url}/api/regole`, { headers: { cookie } })).json()) as PublicRulesDto;
    const day = allowedDay(fromPublicRules(rules), { now: new Date(), windows: [{ orarioInizio: '10:00', orarioFine: '12:00' }] });
    const booking = await fetch(`${first.url}/api/prenotazioni`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ dataPrenotazione: day, orarioInizio: '10:00', orarioFine: '12:00', biciId: 1 }),
    });
    expect(booking.status).toBe(201);
    const { id } = (await booking.json()) as { id: number };

    const pgPid = (await readPostmasterPid(path.join(dataDir, 'postgres'))).pid;
    process.kill(first.child.pid!, 'SIGKILL'); // the app only: its PostgreSQL is orphaned
    await waitForExit(first.child);
    expect(isAlive(pgPid)).toBe(true);

    const second = await start();
    expect(isAlive(pgPid)).toBe(false); // the orphan was stopped, a new one started
    const again = await login(second);
    const mine = await fetch(`${second.url}/api/prenotazioni/user`, { headers: { cookie: again } });
    expect(((await mine.json()) as { id: number }[]).map((b) => b.id)).toContain(id);

    // A clean stop: SIGTERM closes HTTP, the pool and PostgreSQL, and exits 0.
    stopGroup(second.child, 'SIGTERM');
    expect(await waitForExit(second.child)).toBe(0);
    await expect(fs.access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  });
});
