import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/schema.js';
import { createSession } from '../../src/server/modules/auth/sessions.js';
import { createTestDatabase } from '../helpers/db.js';
import { allowedDay, readServiceDays } from '../helpers/days.js';
import { bundleEntryPoints, freePort, ROOT, startServer, stopGroup, waitForExit, type ServerProcess } from '../helpers/server-process.js';

/**
 * Two real processes on one database: the app serving, and the built CLI importing bikes.
 * Both entry points are bundled as `npm run build` bundles them (scripts/build-server.mjs),
 * into a folder of this test's own under .tmp/ (dist/ is left alone). Whatever another
 * process commits is in the app's very next answer: there is no answer cache to empty and no
 * notification to wait for (decision 018, follow-up).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let bundle: Awaited<ReturnType<typeof bundleEntryPoints>>;
let outdir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  bundle = await bundleEntryPoints('availability-build');
  outdir = bundle.dir;
});

afterAll(async () => {
  if (server) {
    stopGroup(server.child, 'SIGTERM');
    await waitForExit(server.child).catch(() => undefined);
  }
  await database.drop();
  await bundle.remove();
});

function runCli(args: string[]) {
  const child = spawn('node', [path.join(outdir, 'cli.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { done, output: () => output };
}

describe('availability across processes', () => {
  it('a bike added by SQL or imported by the CLI is in the running app’s very next answer', { timeout: 60_000 }, async () => {
    const port = String(await freePort());
    server = await startServer(['node', '--enable-source-maps', path.join(outdir, 'main.js')], {
      PORT: port,
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: path.join(outdir, 'data'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    const [user] = await database.db
      .insert(users)
      .values({ nome: 'Ada', cognome: 'Rossi', email: 'ada@test.it', passwordHash: 'not-used-here', isResidente: true })
      .returning({ id: users.id });
    const { token } = await createSession(database.db, user!.id, 'session', new Date());
    const day = allowedDay(await readServiceDays(database.db), { now: new Date() });
    const window = { dataPrenotazione: day, orarioInizio: '10:00', orarioFine: '11:00' };
    const available = async (w = window) => {
      const res = await fetch(`${server!.url}/api/biciclette/available`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `bicielis_session=${token}` },
        body: JSON.stringify(w),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { numero: string }[]).map((b) => b.numero);
    };
    // A bike inserted with SQL (nothing announces it: no trigger notifies availability any
    // more) is in the next answer for a window just asked twice.
    const other = { ...window, orarioInizio: '12:00', orarioFine: '13:00' };
    expect(await available(other)).not.toContain('QUIET-1');
    expect(await available(other)).not.toContain('QUIET-1');
    await database.db.execute(sql`insert into biciclette (numero, modello) values ('QUIET-1', 'City Bike')`);
    expect(await available(other)).toContain('QUIET-1');

    const csv = path.join(outdir, 'bikes.csv');
    await fs.writeFile(csv, 'numero,modello\nCLI-1,City Bike\n');

    // The CLI is held at its insert by a lock of this test (reads are not blocked), so that
    // the app answers the window a moment before the CLI commits.
    const lock = new pg.Client({ connectionString: database.url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table biciclette in share mode');
      const cli = runCli(['bikes', 'import', csv]);
      for (let waited = 0; ; waited += 20) {
        const blocked = await database.db.execute(
          sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike 'insert into "biciclette"%'`,
        );
        if (blocked.rows.length > 0) break;
        if (waited > 30_000) throw new Error(`the CLI never reached its insert:\n${cli.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }

      expect(await available()).not.toContain('CLI-1');
      expect(await available()).not.toContain('CLI-1');
      await lock.query('commit');
      // The CLI exits after its commit: the app's next answer has the bike, no waiting.
      expect(await cli.done).toBe(0);
      expect(cli.output()).toContain('Biciclette: 1 inserite');
      expect(await available()).toContain('CLI-1');
    } finally {
      await lock.end();
    }

    stopGroup(server.child, 'SIGTERM');
    expect(await waitForExit(server.child)).toBe(0);
    server = undefined;
  });
});
