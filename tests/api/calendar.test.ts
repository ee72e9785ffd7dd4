import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferenzeUtente } from '../../src/server/schema.js';
import { buildCalendar, escapeText, foldLine } from '../../src/server/modules/calendar/ical.js';
import { hashCalendarToken } from '../../src/server/modules/profile/calendar-token.js';
import { maskUrl } from '../../src/server/logger.js';
import { person, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { collectedLogLines, noteSecret } from '../helpers/leak-scan.js';

/** The calendar (decision 022): the private feed and one booking's .ics, read back with ical.js. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

const HOSTILE_DESTINATION = 'Via Roma, 12; scala \\B\ncitofono <script>alert(1)</script> & "Bianchi" <b>x</b> 🚲';

async function newFeed(who: Person): Promise<{ url: string; token: string; path: string }> {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/profilo/calendario', headers: { cookie: who.cookie } });
  expect(res.statusCode, res.body).toBe(200);
  const { url } = res.json() as { url: string };
  const token = url.split('/').pop()!;
  noteSecret(token);
  return { url, token, path: new URL(url).pathname };
}

const fetchFeed = (path: string) => ctx.app.inject({ method: 'GET', url: path });

interface ParsedEvent {
  uid: string;
  summary: string;
  location: string | null;
  description: string | null;
  status: string | null;
  tzid: string | null;
  start: string;
  end: string;
  startInstant: string;
  endInstant: string;
}

/** Parses with ical.js (which refuses malformed iCalendar) and reads every VEVENT in its zone. */
function parse(text: string): { events: ParsedEvent[]; calendar: ICAL.Component } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const tz of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    for (const prop of ['uid', 'dtstamp', 'dtstart', 'dtend']) expect(v.getFirstProperty(prop), prop).not.toBeNull();
    return {
      uid: e.uid,
      summary: e.summary,
      location: (v.getFirstPropertyValue('location') as string | null) ?? null,
      description: (v.getFirstPropertyValue('description') as string | null) ?? null,
      status: (v.getFirstPropertyValue('status') as string | null) ?? null,
      tzid: v.getFirstProperty('dtstart')!.getParameter('tzid') as string | null,
      start: e.startDate.toString(),
      end: e.endDate.toString(),
      startInstant: e.startDate.toJSDate().toISOString(),
      endInstant: e.endDate.toJSDate().toISOString(),
    };
  });
  return { events, calendar };
}

/** RFC 5545 §3.1: CRLF line ends, no line over 75 octets. */
function expectWellFormedLines(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
}

describe('the calendar feed', () => {
  it('lists the active and completed bookings of the last 90 days and ahead, in TZ_APP across both DST changes, escaped', async () => {
    const owner = await person(ctx);
    const other = await person(ctx);
    const bike = await insertBike(ctx.database.db, { numero: '12', modello: 'City Bike' });
    const bike2 = await insertBike(ctx.database.db, { numero: '7', modello: 'Mountain Bike' });
    // Now is 2026-11-21 10:00 in Rome. Summer time ended 2026-10-25; it starts again 2027-03-28.
    const beforeAutumnChange = await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike, date: '2026-10-24', from: '10:00', to: '11:30', stato: 'completata', destinazione: HOSTILE_DESTINATION });
    const afterAutumnChange = await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike2, date: '2026-10-26', from: '10:00', to: '12:00', stato: 'completata' });
    const afterSpringChange = await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike, date: '2027-03-29', from: '10:00', to: '11:00', destinazione: 'Stazione Termini' });
    await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike, date: '2026-08-10', from: '10:00', to: '11:00', stato: 'completata' }); // over 90 days ago
    await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike2, date: '2026-11-23', from: '10:00', to: '11:00', stato: 'cancellata' });
    await insertBooking(ctx.database.db, { userId: other.id, biciId: bike2, date: '2026-11-22', from: '10:00', to: '11:00' }); // not theirs

    const { path } = await newFeed(owner);
    const res = await fetchFeed(path);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectWellFormedLines(res.body);

    const { events, calendar } = parse(res.body);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid')).toBe('Europe/Rome');
    const host = new URL(ctx.config.publicUrl).hostname;
    expect(events.map((e) => e.uid)).toEqual([beforeAutumnChange, afterAutumnChange, afterSpringChange].map((id) => `prenotazione-${id}@${host}`));
    expect(events.map((e) => e.summary)).toEqual(['Bicicletta 12 (City Bike)', 'Bicicletta 7 (Mountain Bike)', 'Bicicletta 12 (City Bike)']);
    expect(events.every((e) => e.tzid === 'Europe/Rome' && e.status === 'CONFIRMED')).toBe(true);
    // 10:00 on the wall clock each time; the instants differ by the offset (+02:00, +01:00, +02:00).
    expect(events.map((e) => [e.start, e.end])).toEqual([
      ['2026-10-24T10:00:00', '2026-10-24T11:30:00'],
      ['2026-10-26T10:00:00', '2026-10-26T12:00:00'],
      ['2027-03-29T10:00:00', '2027-03-29T11:00:00'],
    ]);
    expect(events.map((e) => [e.startInstant, e.endInstant])).toEqual([
      ['2026-10-24T08:00:00.000Z', '2026-10-24T09:30:00.000Z'],
      ['2026-10-26T09:00:00.000Z', '2026-10-26T11:00:00.000Z'],
      ['2027-03-29T08:00:00.000Z', '2027-03-29T09:00:00.000Z'],
    ]);
    // The destination comes back exactly as typed: , ; \ and the line break escaped, HTML as text.
    expect(events[0]!.location).toBe(HOSTILE_DESTINATION);
    expect(events[0]!.description).toContain(`Destinazione: ${HOSTILE_DESTINATION}`);
    expect(res.body).toContain('Via Roma\\, 12\\; scala \\\\B\\ncitofono <script>');
    expect(events[1]!.location).toBeNull();
    expect(events[2]!.location).toBe('Stazione Termini');
  });

  it('a new link replaces the old one; a revoked or unknown link is 404 in Italian; only the hash is stored', async () => {
    const owner = await person(ctx);
    const first = await newFeed(owner);
    expect(first.url).toMatch(/^http:\/\/localhost:3000\/api\/calendario\/[A-Za-z0-9_-]{43}$/);
    const [row] = await ctx.database.db.select().from(preferenzeUtente).where(eq(preferenzeUtente.userId, owner.id));
    expect(row!.calendarioTokenHash).toBe(hashCalendarToken(first.token));
    const profile = () => ctx.app.inject({ method: 'GET', url: '/api/profilo', headers: { cookie: owner.cookie } });
    expect((await profile()).json().calendarioAttivo).toBe(true);
    expect((await fetchFeed(first.path)).statusCode).toBe(200);

    const second = await newFeed(owner);
    expect(second.token).not.toBe(first.token);
    const old = await fetchFeed(first.path);
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe('Calendario non trovato: il link non è valido o è stato revocato');
    expect((await fetchFeed(second.path)).statusCode).toBe(200);

    const revoked = await ctx.app.inject({ method: 'DELETE', url: '/api/profilo/calendario', headers: { cookie: owner.cookie } });
    expect(revoked.statusCode).toBe(204);
    expect((await fetchFeed(second.path)).statusCode).toBe(404);
    expect((await profile()).json().calendarioAttivo).toBe(false);
    // Revoking twice is harmless.
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/profilo/calendario', headers: { cookie: owner.cookie } })).statusCode).toBe(204);

    for (const bad of ['abc', 'A'.repeat(43), '%00', 'x'.repeat(60)]) {
      const res = await fetchFeed(`/api/calendario/${bad}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().message).toBe('Calendario non trovato: il link non è valido o è stato revocato');
    }
  });

  it('an empty feed is still a valid calendar', async () => {
    const owner = await person(ctx);
    const { path } = await newFeed(owner);
    const res = await fetchFeed(path);
    expect(res.statusCode).toBe(200);
    expectWellFormedLines(res.body);
    expect(parse(res.body).events).toEqual([]);
  });

  it('the request log shows /api/calendario/*** and never the token', async () => {
    const owner = await person(ctx);
    const { path, token } = await newFeed(owner);
    const from = collectedLogLines.length;
    await fetchFeed(path);
    await fetchFeed(`${path}?x=1`);
    const lines = collectedLogLines.slice(from);
    expect(lines.some((l) => JSON.parse(l).req?.url === '/api/calendario/***')).toBe(true);
    expect(lines.some((l) => JSON.parse(l).req?.url === '/api/calendario/***?x=1')).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
    // The scan after this file (scan-logs-after-file.ts) also looks for every feed token noted.
  });
});

describe('GET /api/prenotazioni/:id/calendario.ics', () => {
  it('one VEVENT for the owner, as an attachment; 404 for anyone else, 401 without a session', async () => {
    const owner = await person(ctx);
    const other = await person(ctx);
    const bike = await insertBike(ctx.database.db, { numero: '31', modello: 'E-Bike' });
    const id = await insertBooking(ctx.database.db, { userId: owner.id, biciId: bike, date: '2026-11-22', from: '09:30', to: '10:45', destinazione: 'Colosseo; poi Fori' });
    const url = `/api/prenotazioni/${id}/calendario.ics`;
    const res = await ctx.app.inject({ method: 'GET', url, headers: { cookie: owner.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="prenotazione-${id}.ics"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expectWellFormedLines(res.body);
    const { events } = parse(res.body);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      summary: 'Bicicletta 31 (E-Bike)',
      location: 'Colosseo; poi Fori',
      tzid: 'Europe/Rome',
      start: '2026-11-22T09:30:00',
      end: '2026-11-22T10:45:00',
      startInstant: '2026-11-22T08:30:00.000Z',
    });

    const notTheirs = await ctx.app.inject({ method: 'GET', url, headers: { cookie: other.cookie } });
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json().message).toBe('Prenotazione non trovata');
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const missing = await ctx.app.inject({ method: 'GET', url: `/api/prenotazioni/${id + 1000}/calendario.ics`, headers: { cookie: owner.cookie } });
    expect(missing.statusCode).toBe(404);
  });
});

describe('the iCalendar writer', () => {
  it('escapes TEXT values and folds at 75 octets without splitting a character', () => {
    expect(escapeText('a,b;c\\d\r\ne\nf\u0007')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
    const folded = foldLine(`DESCRIPTION:${'è'.repeat(100)}`);
    const lines = folded.slice(0, -2).split('\r\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(`DESCRIPTION:${'è'.repeat(100)}`);
  });

  it('any zone: the wall-clock times and instants read back equal (southern hemisphere, half-hour and no-DST zones)', () => {
    const start = new Date('2026-04-05T01:30:00Z');
    const end = new Date('2026-10-04T03:30:00Z');
    for (const timeZone of ['Australia/Sydney', 'Asia/Kolkata', 'America/New_York', 'UTC']) {
      const text = buildCalendar(
        [
          { uid: 'a@test', start, end: new Date(start.getTime() + 3_600_000), summary: 'A' },
          { uid: 'b@test', start: end, end: new Date(end.getTime() + 3_600_000), summary: 'B' },
        ],
        { timeZone, now: new Date('2026-01-01T00:00:00Z') },
      );
      expectWellFormedLines(text);
      const { events } = parse(text);
      expect(events.map((e) => e.startInstant), timeZone).toEqual([start.toISOString(), end.toISOString()]);
      const wall = (d: Date) =>
        new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
          .format(d)
          .replace(' ', 'T');
      expect(events.map((e) => e.start), timeZone).toEqual([wall(start), wall(end)]);
    }
  });

  it('maskUrl hides whatever follows /api/calendario/', () => {
    expect(maskUrl('/api/calendario/abcDEF_-123')).toBe('/api/calendario/***');
    expect(maskUrl('/api/calendario/abc?x=1')).toBe('/api/calendario/***?x=1');
    expect(maskUrl('/API/Calendario/abc')).toBe('/API/Calendario/***');
    expect(maskUrl('/api/prenotazioni/1/calendario.ics')).toBe('/api/prenotazioni/1/calendario.ics');
  });
});
