import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TicketDto } from '../../src/shared/schemas/interventi.js';
import { biciclette, incarichi } from '../../src/server/schema.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { call, capturingMailer, person, truncateAll, type Person } from '../helpers/admin-fixtures.js';
import { formBody, type FormFile } from '../helpers/multipart.js';

/**
 * A ticket's photos (issue 48): the type read from the bytes, never the name; re-encoded to JPEG
 * at most 1600 px with no metadata (GPS gone); 10 MB at most, 3 at most; shown only to the
 * reporter and the sede's staff.
 */
let ctx: TestContext;
let reporter: Person;
let mechanic: Person;
let biciId: number;

beforeAll(async () => {
  ctx = await createTestApp({ deps: { mailer: capturingMailer() } });
});
afterAll(async () => {
  await ctx?.close();
});
beforeEach(async () => {
  await truncateAll(ctx.database.db);
  reporter = await person(ctx);
  mechanic = await person(ctx);
  const { rows } = await ctx.database.db.execute<{ id: number }>(sql`select id from sedi order by id limit 1`);
  await ctx.database.db.insert(incarichi).values({ userId: mechanic.id, sedeId: rows[0]!.id, ruolo: 'officina' });
  const [bike] = await ctx.database.db.insert(biciclette).values({ numero: '03', modello: 'City Bike' }).returning({ id: biciclette.id });
  biciId = bike!.id;
});

const png = (width = 40, height = 30) => sharp({ create: { width, height, channels: 3, background: '#c03030' } }).png().toBuffer();

async function report(files: FormFile[], who: Person = reporter) {
  const body = await formBody({ biciId: String(biciId), categoria: 'ruote', descrizione: 'Ruota bucata' }, files);
  return ctx.app.inject({ method: 'POST', url: '/api/interventi', headers: { cookie: who.cookie, ...body.headers }, payload: body.payload });
}
const count = async () => Number((await ctx.database.db.execute<{ n: string }>(sql`select count(*) as n from interventi`)).rows[0]!.n);

async function stored(t: TicketDto, who: Person = reporter) {
  const res = await call(ctx.app, who, 'GET', t.foto[0]!.url);
  expect(res.statusCode).toBe(200);
  return { res, bytes: res.rawPayload };
}

describe('photos of a report', () => {
  it('a PNG named .jpg is accepted and stored as JPEG, private, not sniffable', async () => {
    const res = await report([{ filename: 'foto.jpg', type: 'image/jpeg', data: await png() }]);
    expect(res.statusCode).toBe(201);
    const t = res.json<TicketDto>();
    expect(t.foto).toHaveLength(1);
    expect(t.miniatura).toEqual(t.foto[0]);
    const { res: photo, bytes } = await stored(t);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['cache-control']).toMatch(/^private/);
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(bytes).metadata()).format).toBe('jpeg');
  });

  it('a text file named .jpg is refused (400), nothing written', async () => {
    const res = await report([{ filename: 'foto.jpg', type: 'image/jpeg', data: Buffer.from('non sono una foto, solo testo\n'.repeat(20)) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('PHOTO_NOT_IMAGE');
    expect(await count()).toBe(0);
  });

  it('an 11 MB file is refused (413) in the person’s language, nothing written', async () => {
    const res = await report([{ filename: 'grande.jpg', type: 'image/jpeg', data: Buffer.alloc(11 * 1024 * 1024, 7) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json<{ message: string }>().message).toBe('Ogni foto può pesare al massimo 10 MB');
    expect(await count()).toBe(0);
  });

  it('a fourth photo is refused, nothing written', async () => {
    const data = await png();
    const res = await report([1, 2, 3, 4].map((n) => ({ filename: `${n}.png`, type: 'image/png', data })));
    expect(res.statusCode).toBe(413);
    expect(await count()).toBe(0);
  });

  it('a JPEG with GPS in its EXIF: stored without any metadata, turned upright, at most 1600 px', async () => {
    const withGps = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#3060c0' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Telefono' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '45/1 28/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '9/1 11/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(withGps).metadata();
    expect(before.exif).toBeDefined();
    expect(before.exif!.toString('latin1')).toContain('N');
    expect(before.orientation).toBe(6);
    const t = (await report([{ filename: 'gps.jpg', type: 'image/jpeg', data: withGps }])).json<TicketDto>();
    const after = await sharp((await stored(t)).bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    // Orientation 6 turns 2400×1200 upright to 1200×2400, then into 800×1600.
    expect([after.width, after.height]).toEqual([800, 1600]);
    expect([t.foto[0]!.larghezza, t.foto[0]!.altezza]).toEqual([800, 1600]);
  });

  it('another user’s photo is 404 (and an unknown one); the sede’s workshop sees it', async () => {
    const t = (await report([{ filename: 'a.png', type: 'image/png', data: await png() }])).json<TicketDto>();
    const stranger = await person(ctx);
    expect((await call(ctx.app, stranger, 'GET', t.foto[0]!.url)).statusCode).toBe(404);
    expect((await call(ctx.app, null, 'GET', t.foto[0]!.url)).statusCode).toBe(401);
    expect((await call(ctx.app, reporter, 'GET', `/api/interventi/${t.id}/foto/${t.foto[0]!.id + 1}`)).statusCode).toBe(404);
    expect((await stored(t, mechanic)).bytes.length).toBeGreaterThan(0);
  });

  it('a malformed multipart body is 400, never 500', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/interventi',
      headers: { cookie: reporter.cookie, 'content-type': 'multipart/form-data; boundary=XYZ' },
      payload: '--XYZ\r\nContent-Disposition: form-data; name="biciId"\r\n\r\n1\r\n--XY',
    });
    expect(res.statusCode).toBe(400);
    expect(await count()).toBe(0);
  });

  it('a huge field is 400', async () => {
    const body = await formBody({ biciId: String(biciId), categoria: 'ruote', descrizione: 'x'.repeat(100_000) });
    const res = await ctx.app.inject({ method: 'POST', url: '/api/interventi', headers: { cookie: reporter.cookie, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
  });
});
