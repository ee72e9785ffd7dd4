import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type * as ReactQuery from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../src/web/boot/entry-server.js';
import { createTestApp, TEST_NOW, type TestContext } from '../helpers/app.js';
import { person, truncateAll } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';

/**
 * Issue 51 (decision 071): `/admin`'s lists read once what every row shares. A row's sede badge
 * used to read the public config through its own `useQuery`, and every row created two desk
 * mutations and a deletion mutation: observers made on the server's render and again in the
 * browser's hydration, for each of the first page's rows. The hooks are counted here as the
 * server renders the page, through the app's own renderer.
 */
const calls = vi.hoisted(() => ({ config: 0, queries: 0, mutations: 0 }));
vi.mock('@tanstack/react-query', async (importOriginal) => {
  const original = await importOriginal<typeof ReactQuery>();
  return {
    ...original,
    useQuery: ((options: { queryKey: readonly unknown[] }, client?: unknown) => {
      calls.queries += 1;
      if (options.queryKey[0] === '/api/config') calls.config += 1;
      return original.useQuery(options as never, client as never);
    }) as typeof original.useQuery,
    useMutation: ((options: unknown, client?: unknown) => {
      calls.mutations += 1;
      return original.useMutation(options as never, client as never);
    }) as typeof original.useMutation,
  };
});

let ctx: TestContext;
let webRoot: string;
const ROWS = 12;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'bicielis-admin-hooks-'));
  // The built pages the server finds at start (as tests/api/server-render.test.ts writes them).
  for (const file of ['index.html', 'login.html', 'dashboard.html', 'admin.html']) {
    await fs.writeFile(
      path.join(webRoot, file),
      '<!doctype html><html lang="it"><head><title>BiciElis</title></head><body><div id="root" data-prerendered="loading"><main></main></div></body></html>',
    );
  }
  ctx = await createTestApp({ deps: { webRoot, pageRenderer: { renderPage } } });
  ctx.clock.set(TEST_NOW);
  await truncateAll(ctx.database.db);
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await fs.rm(webRoot, { recursive: true, force: true });
});

describe("/admin's render", () => {
  it('reads the public config and makes its mutations once per list, not once per row', async () => {
    const db = ctx.database.db;
    // Two sedi: the badges show. A page of done rides, the rows the bookings tab renders first.
    await db.execute(sql`insert into sedi (nome) values ('Residenza Nord')`);
    const marta = await person(ctx, { nome: 'Marta', cognome: 'Ruota' });
    const admin = await person(ctx, { ruolo: 'admin' });
    const bike = await insertBike(db, { numero: '17' });
    for (let day = 1; day <= ROWS; day++)
      await insertBooking(db, { userId: marta.id, biciId: bike, date: `2026-11-${String(day).padStart(2, '0')}`, from: '10:00', to: '12:00', stato: 'completata' });
    // A first render loads what the page meets first; the second is what each request costs.
    const open = () => ctx.app.inject({ method: 'GET', url: '/admin', headers: { cookie: admin.cookie } });
    expect((await open()).statusCode).toBe(200);
    Object.assign(calls, { config: 0, queries: 0, mutations: 0 });
    const res = await open();
    expect(res.statusCode).toBe(200);
    // The page is the server's, with its ten first rows and their sede badges.
    const table = /aria-label="Prenotazioni"[^>]*><table.*?<\/table>/s.exec(res.body)?.[0] ?? '';
    expect(/<tbody.*?<\/tbody>/s.exec(table)?.[0].match(/<tr data-slot="table-row"/g)).toHaveLength(10);
    const home = (await db.execute<{ nome: string }>(sql`select nome from sedi order by id limit 1`)).rows[0]!.nome;
    expect(table.match(new RegExp(`data-slot="badge"[^>]*>${home}<`, 'g'))).toHaveLength(10);
    // A row's badge reading the config itself would make 10 more; a row's three mutations 30.
    expect(calls.config, `config read ${calls.config} times`).toBeLessThan(10);
    expect(calls.mutations, `${calls.mutations} mutations`).toBeLessThan(10);
  });
});
