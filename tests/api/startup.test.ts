import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, biciclette, residenti } from '../../src/server/schema.js';
import { DEMO_ACCOUNTS, DEMO_BIKES, DEMO_RESIDENTS, ensureAdmin, seedDemo } from '../../src/server/seed/seed.js';
import { HISTORY_EXTERNALS, HISTORY_RESIDENTS } from '../../src/server/seed/seed-history.js';
import { verifyPassword } from '../../src/server/modules/auth/password.js';
import { createTestDatabase } from '../helpers/db.js';
import { freePort, ROOT, startServer, stopGroup, waitForExit } from '../helpers/server-process.js';

const silent = pino({ level: 'silent' });
let database: Awaited<ReturnType<typeof createTestDatabase>>;
/** An empty database (no migrations applied) standing for an external server. */
let external: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
  external = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await database.drop();
  await external.drop();
});

describe('start-up', () => {
  it('with DATABASE_URL uses that server: migrates it, seeds only if asked, and serves', { timeout: 60_000 }, async () => {
    const port = String(await freePort());
    const server = await startServer(['node', '--import', 'tsx', 'src/server/main.ts'], {
      PORT: port,
      HOST: '127.0.0.1',
      DATABASE_URL: external.url,
      DATA_DIR: path.join(os.tmpdir(), `bicielis-unused-${port}`),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    try {
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ status: 'ok', db: 'ok' });
      // No embedded PostgreSQL was started, and no demo data loaded (SEED_DEMO defaults to false).
      expect(existsSync(path.join(os.tmpdir(), `bicielis-unused-${port}`, 'postgres'))).toBe(false);
      const tables = await external.db.execute(sql`select count(*)::int as n from biciclette`);
      expect(tables.rows[0]).toEqual({ n: 0 });
    } finally {
      stopGroup(server.child, 'SIGTERM');
      expect(await waitForExit(server.child)).toBe(0);
    }
  });

  it('with ADMIN_EMAIL and SEED_DEMO on a new database loads the demo data and the configured admin', { timeout: 60_000 }, async () => {
    const fresh = await createTestDatabase({ empty: true });
    const port = String(await freePort());
    const server = await startServer(['node', '--import', 'tsx', 'src/server/main.ts'], {
      PORT: port,
      HOST: '127.0.0.1',
      DATABASE_URL: fresh.url,
      DATA_DIR: path.join(os.tmpdir(), `bicielis-unused-${port}`),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'true',
      ADMIN_EMAIL: 'Direzione@Collegio.it',
      ADMIN_PASSWORD: 'direzione-segreta-1',
    });
    try {
      const login = async (email: string, password: string) => {
        const res = await fetch(`${server.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
        expect(res.status).toBe(200);
        return res.headers.getSetCookie()[0]!.split(';')[0]!;
      };
      const adminCookie = await login('direzione@collegio.it', 'direzione-segreta-1');
      const bikes = (await (await fetch(`${server.url}/api/biciclette`, { headers: { cookie: adminCookie } })).json()) as unknown[];
      expect(bikes).toHaveLength(DEMO_BIKES.length);
      for (const demo of DEMO_ACCOUNTS) await login(demo.email, demo.password);
      expect(server.output()).toContain('residente@bicielis.demo');
      const codes = await fresh.db.execute(sql`select count(*)::int as n from residenti`);
      expect(codes.rows[0]).toEqual({ n: DEMO_RESIDENTS.length + HISTORY_RESIDENTS });
    } finally {
      stopGroup(server.child, 'SIGTERM');
      expect(await waitForExit(server.child)).toBe(0);
      await fresh.drop();
    }
  });

  it('exits with code 1 and names the variable on a bad configuration', () => {
    const run = spawnSync('node', ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'tremila', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });

  it('loads demo data on an empty database only, with at least 12 bikes of three kinds', async () => {
    const created = await seedDemo(database.db, silent);
    expect(created.map((a) => a.ruolo).sort()).toEqual(['admin', 'user', 'user', 'user', 'user', 'user']);
    const bikes = await database.db.select().from(biciclette);
    expect(bikes.length).toBeGreaterThanOrEqual(12);
    for (const kind of ['city', 'hybrid', 'mountain']) {
      expect(bikes.some((b) => b.modello.toLowerCase().includes(kind))).toBe(true);
    }
    expect((await database.db.select().from(residenti)).length).toBeGreaterThan(3);
    const resident = DEMO_ACCOUNTS.find((a) => a.sigla)!;
    const [row] = await database.db.select().from(users).where(eq(users.email, resident.email));
    expect(row).toMatchObject({ isResidente: true, siglaResidente: resident.sigla });
    expect(await verifyPassword(row!.passwordHash, resident.password)).toBe(true);
    // A ride in progress (decision 022): the demo cyclist picked up bike 01 before now and
    // brings it back after; the demo resident has no booking and may book at once.
    const rides = await database.db.execute<{ email: string; numero: string; started: boolean; ends_later: boolean; picked_up: boolean }>(sql`
      select u.email, b.numero, p.inizio <= now() as started, p.fine > now() as ends_later, p.ritirata_at <= now() as picked_up
        from prenotazioni p join users u on u.id = p.user_id join biciclette b on b.id = p.bici_id where p.stato = 'attiva' order by b.numero`);
    // And one person on a ride at the second sede (issue 47), on its first bike.
    expect(rides.rows).toEqual([
      { email: 'ciclista@bicielis.demo', numero: '01', started: true, ends_later: true, picked_up: true },
      { email: expect.stringMatching(/@studenti\.bicielis\.demo$/), numero: '15', started: true, ends_later: true, picked_up: true },
    ]);
    expect(await seedDemo(database.db, silent)).toEqual([]);
    expect((await database.db.select().from(biciclette)).length).toBe(DEMO_BIKES.length);
  });

  it('counts only the configured admin as nothing: demo data still loads beside it, once', async () => {
    const fresh = await createTestDatabase();
    try {
      await ensureAdmin(fresh.db, { email: 'capo@collegio.it', password: 'segreta-123' }, silent);
      expect(await seedDemo(fresh.db, silent)).toEqual([]); // without the admin's email it is not empty
      const created = await seedDemo(fresh.db, silent, ' Capo@Collegio.it ');
      expect(created).toHaveLength(DEMO_ACCOUNTS.length);
      expect((await fresh.db.select().from(biciclette)).length).toBe(DEMO_BIKES.length);
      expect(await seedDemo(fresh.db, silent, 'capo@collegio.it')).toEqual([]);
      // The demo accounts, the configured admin, and the people of the demo's past (issue 20).
      expect((await fresh.db.select().from(users)).length).toBe(DEMO_ACCOUNTS.length + 1 + HISTORY_RESIDENTS + HISTORY_EXTERNALS);
    } finally {
      await fresh.drop();
    }
  });

  it('an ADMIN_EMAIL that is also a demo address keeps its configured password', async () => {
    const fresh = await createTestDatabase();
    try {
      const demoAdmin = DEMO_ACCOUNTS.find((a) => a.ruolo === 'admin')!;
      await ensureAdmin(fresh.db, { email: demoAdmin.email, password: 'configurata-789' }, silent);
      const created = await seedDemo(fresh.db, silent, demoAdmin.email);
      expect(created.map((a) => a.email)).not.toContain(demoAdmin.email);
      const [admin] = await fresh.db.select().from(users).where(eq(users.email, demoAdmin.email));
      expect(await verifyPassword(admin!.passwordHash, 'configurata-789')).toBe(true);
    } finally {
      await fresh.drop();
    }
  });

  it('creates the ADMIN_EMAIL admin if missing and leaves an existing account alone', async () => {
    expect(await ensureAdmin(database.db, { email: ' Capo@Collegio.it ', password: 'segreta-123' }, silent)).toBe(true);
    const [admin] = await database.db.select().from(users).where(eq(users.email, 'capo@collegio.it'));
    expect(admin!.ruolo).toBe('admin');
    expect(await verifyPassword(admin!.passwordHash, 'segreta-123')).toBe(true);
    expect(await ensureAdmin(database.db, { email: 'capo@collegio.it', password: 'altra-456' }, silent)).toBe(false);
    const [same] = await database.db.select().from(users).where(eq(users.email, 'capo@collegio.it'));
    expect(same!.passwordHash).toBe(admin!.passwordHash);
  });
});
