import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PushSender } from '../../src/server/modules/notifications/index.js';
import { sendRideNotices } from '../../src/server/modules/bookings/notices.js';
import { emailReport, generateReport, type ReportDeps } from '../../src/server/modules/reports/service.js';
import { capturingMailer, person, type Person } from '../helpers/admin-fixtures.js';
import { insertBike, insertBooking } from '../helpers/admin-bookings.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { createUser } from '../helpers/factories.js';
import { noteSecret } from '../helpers/leak-scan.js';
import { pdfPages } from '../helpers/pdf-text.js';

/**
 * Issue 36: what the server sends a person outside an API answer is in that person's language
 * (`users.lingua`): emails, web push, the calendar feed, the nightly report's PDF and the bikes'
 * labels. The Italian texts are the other tests' (accounts-recovery, push, calendar, reports…).
 */

/** A raw message with its soft line breaks and quoted-printable escapes undone. */
const decoded = (raw: string) =>
  Buffer.from(
    raw
      .replace(/\r\n/g, '\n')
      .replace(/=\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let ctx: TestContext;
const db = () => ctx.database.db;
const inEnglish = (id: number) => db().execute(sql`update users set lingua = 'en' where id = ${id}`);

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'BiciElis <noreply@bici.test>' } });
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  ctx.clock.set('2026-11-21T09:00:00Z');
});

describe('emails', () => {
  it('the password recovery email of an English account is in English (subject, text, HTML); an Italian one stays Italian', async () => {
    const english = await createUser(db(), { nome: 'Emma' });
    await inEnglish(english.id);
    const italian = await createUser(db(), { nome: 'Giulia' });
    for (const email of [english.email, italian.email]) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/reset-password', payload: { email }, remoteAddress: `10.36.0.${smtp.received.length + 1}` });
      expect(res.statusCode).toBe(200);
    }
    await ctx.app.deps.mailer.idle();
    const mailTo = (email: string) => decoded(smtp.received.find((m) => m.to.includes(email))!.raw);

    const en = mailTo(english.email);
    expect(en).toContain('Subject: BiciElis: your temporary password');
    expect(en).toContain('Hi Emma,');
    expect(en).toMatch(/Temporary password: [A-Za-z0-9]{12}/);
    expect(en).toContain('It is valid for');
    expect(en).toContain('The BiciElis team');
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('This email was sent automatically by BiciElis.');
    expect(en).not.toContain('Password temporanea');
    noteSecret(/Temporary password: ([A-Za-z0-9]{12})/.exec(en)![1]!);

    const italianMail = mailTo(italian.email);
    expect(italianMail).toContain('Subject: BiciElis: la tua password temporanea');
    expect(italianMail).toContain('Ciao Giulia,');
    expect(italianMail).toMatch(/Password temporanea: [A-Za-z0-9]{12}/);
    expect(italianMail).toContain('<html lang="it">');
    noteSecret(/Password temporanea: ([A-Za-z0-9]{12})/.exec(italianMail)![1]!);
  });
});

describe('the ride reminders: email and web push', () => {
  it('a start reminder reaches an English account in English, by email and by push; an Italian one in Italian', async () => {
    const mailer = capturingMailer();
    const pushed: { userId: number; title: string; body: string; lang?: string }[] = [];
    const push: PushSender = { send: async (userId, payload) => void pushed.push({ userId, title: payload.title, body: payload.body, lang: payload.lang }) };
    const english = await person(ctx, { nome: 'Emma' });
    await inEnglish(english.id);
    const italian = await person(ctx, { nome: 'Giulia' });
    const bike = await insertBike(db(), { numero: '36', modello: 'City Bike' });
    const bike2 = await insertBike(db(), { numero: '37', modello: 'City Bike' });
    // Now is 10:00 in Rome: both start at 10:20 (booked yesterday).
    const createdAt = new Date('2026-11-20T09:00:00Z');
    await insertBooking(db(), { userId: english.id, biciId: bike, date: '2026-11-21', from: '10:20', to: '11:00', createdAt });
    await insertBooking(db(), { userId: italian.id, biciId: bike2, date: '2026-11-21', from: '10:20', to: '11:00', createdAt });

    const result = await sendRideNotices(
      { db: db(), mailer, push, config: { publicUrl: 'https://bici.test' }, log: { error: () => undefined } },
      ctx.clock.now(),
    );
    expect(result.startReminders).toBe(2);

    const en = mailer.sent.find((m) => m.to === english.email)!;
    expect(en.subject).toBe('Reminder: your bike at 10:20');
    expect(en.text).toContain('Hi Emma,');
    expect(en.text).toContain('your booking of bike no. 36 starts at 10:20 (until 11:00).');
    expect(en.text).toContain('mark it "Picked up"');
    expect(en.text).toContain('Your bookings: https://bici.test/dashboard');
    expect(en.html).toContain('<html lang="en">');
    expect(pushed.find((p) => p.userId === english.id)).toEqual({
      userId: english.id,
      title: 'Bike no. 36 at 10:20',
      body: 'Remember to mark it "Picked up" when you take it.',
      // The worker marks the notification with its language (push-sw.js).
      lang: 'en',
    });

    const italianMail = mailer.sent.find((m) => m.to === italian.email)!;
    expect(italianMail.subject).toBe('Promemoria: la tua bicicletta alle 10:20');
    expect(italianMail.text).toContain('alle 10:20 inizia la tua prenotazione della bicicletta n. 37 (fino alle 11:00).');
    expect(pushed.find((p) => p.userId === italian.id)).toEqual({
      userId: italian.id,
      title: 'Bici n. 37 alle 10:20',
      body: 'Ricordati di segnare "Ritirata" quando la prendi.',
      lang: 'it',
    });
  });
});

describe('the calendar', () => {
  /** The feed of `who`, its folded lines joined back. */
  async function feedOf(who: Person): Promise<string> {
    const made = await ctx.app.inject({ method: 'POST', url: '/api/profilo/calendario', headers: { cookie: who.cookie } });
    expect(made.statusCode, made.body).toBe(200);
    const url = new URL((made.json() as { url: string }).url);
    noteSecret(url.pathname.split('/').pop()!);
    const res = await ctx.app.inject({ method: 'GET', url: url.pathname });
    expect(res.statusCode).toBe(200);
    return res.body.replace(/\r\n /g, '');
  }

  it("an English account's feed and .ics file are worded in English; an Italian one's in Italian", async () => {
    const english = await person(ctx);
    await inEnglish(english.id);
    const italian = await person(ctx);
    const bike = await insertBike(db(), { numero: '12', modello: 'City Bike' });
    const id = await insertBooking(db(), { userId: english.id, biciId: bike, date: '2026-11-23', from: '10:00', to: '11:00', destinazione: 'Stazione Termini' });
    const itId = await insertBooking(db(), { userId: italian.id, biciId: bike, date: '2026-11-24', from: '10:00', to: '11:00' });

    const en = await feedOf(english);
    expect(en).toContain('X-WR-CALNAME:BiciElis: my bookings');
    expect(en).toContain('SUMMARY:Bike 12 (City Bike)');
    expect(en).toContain('LOCATION:Stazione Termini');
    expect(en).toContain(`DESCRIPTION:Destination: Stazione Termini\\nBooking no. ${id}: pick up and return the bike from your personal area.`);
    const ics = await ctx.app.inject({ method: 'GET', url: `/api/prenotazioni/${id}/calendario.ics`, headers: { cookie: english.cookie } });
    expect(ics.body.replace(/\r\n /g, '')).toContain('SUMMARY:Bike 12 (City Bike)');

    const italianFeed = await feedOf(italian);
    expect(italianFeed).toContain('X-WR-CALNAME:BiciElis: le mie prenotazioni');
    expect(italianFeed).toContain('SUMMARY:Bicicletta 12 (City Bike)');
    expect(italianFeed).toContain(`DESCRIPTION:Prenotazione n. ${itId}: ritira e riconsegna la bicicletta dalla tua area personale.`);
  });
});

describe('the PDFs', () => {
  const reportDeps = (config: ReportDeps['config'], mailer = capturingMailer()): ReportDeps => ({
    db: db(),
    clock: ctx.clock,
    mailer,
    config,
    log: { info: () => undefined, error: () => undefined },
  });

  it('the nightly report: an English admin downloads it in English, an Italian one gets the stored Italian file', async () => {
    await db().execute(sql`truncate reports restart identity`);
    const report = await generateReport(reportDeps({ timeZone: 'Europe/Rome' }), '2026-11-20');
    const englishAdmin = await person(ctx, { ruolo: 'admin' });
    await inEnglish(englishAdmin.id);
    const italianAdmin = await person(ctx, { ruolo: 'admin' });

    const en = await ctx.app.inject({ url: `/api/reports/download/${report.id}`, headers: { cookie: englishAdmin.cookie } });
    expect(en.statusCode).toBe(200);
    const enText = (await pdfPages(en.rawPayload)).join(' ');
    expect(enText).toContain('Daily report for Friday 20 November 2026');
    expect(enText).toContain('Bookings');
    expect(enText).toContain('Revenue');
    expect(enText).toContain('Use by hour (bookings in progress)');
    expect(enText).toContain('Page 1 of 1');
    expect(enText).not.toContain('Pagina');

    const italianPdf = await ctx.app.inject({ url: `/api/reports/download/${report.id}`, headers: { cookie: italianAdmin.cookie } });
    expect(italianPdf.rawPayload.length).toBe(report.fileSize);
    const itText = (await pdfPages(italianPdf.rawPayload)).join(' ');
    expect(itText).toContain('Report giornaliero di venerdì 20 novembre 2026');
    expect(itText).toContain('Pagina 1 di 1');
  });

  it("the report's email: in the language of REPORT_EMAIL's account, else APP_LANG", async () => {
    await db().execute(sql`truncate reports restart identity`);
    const englishAdmin = await person(ctx, { ruolo: 'admin' });
    await inEnglish(englishAdmin.id);
    const { id } = await generateReport(reportDeps({ timeZone: 'Europe/Rome' }), '2026-11-20');

    const toAccount = capturingMailer();
    expect(await emailReport(reportDeps({ timeZone: 'Europe/Rome', reportEmail: englishAdmin.email }, toAccount), id)).toBe(true);
    expect(toAccount.sent[0]!.subject).toBe('BiciElis report for Friday 20 November 2026');
    expect(toAccount.sent[0]!.text).toContain('Attached is the BiciElis daily report for Friday 20 November 2026');
    expect((await pdfPages(toAccount.sent[0]!.attachments![0]!.content)).join(' ')).toContain('Daily report for');

    const college = capturingMailer();
    await db().execute(sql`update reports set email_sent = false`);
    expect(await emailReport(reportDeps({ timeZone: 'Europe/Rome', reportEmail: 'staff@bici.test', appLang: 'it' }, college), id)).toBe(true);
    expect(college.sent[0]!.subject).toBe('Report BiciElis di venerdì 20 novembre 2026');

    // A college whose language is English stores its reports in English.
    await db().execute(sql`truncate reports restart identity`);
    const englishCollege = reportDeps({ timeZone: 'Europe/Rome', reportEmail: 'staff@bici.test', appLang: 'en' }, capturingMailer());
    const stored = await generateReport(englishCollege, '2026-11-20');
    expect(await emailReport(englishCollege, stored.id)).toBe(true);
    const sent = (englishCollege.mailer as ReturnType<typeof capturingMailer>).sent[0]!;
    expect(sent.subject).toBe('BiciElis report for Friday 20 November 2026');
    expect((await pdfPages(sent.attachments![0]!.content)).join(' ')).toContain('Daily report for Friday 20 November 2026');
  });

  it("the bikes' QR labels follow the requesting admin's language", async () => {
    const englishAdmin = await person(ctx, { ruolo: 'admin' });
    await inEnglish(englishAdmin.id);
    const italianAdmin = await person(ctx, { ruolo: 'admin' });
    await insertBike(db(), { numero: '88' });
    const labels = async (who: Person) => {
      const res = await ctx.app.inject({ url: '/api/admin/biciclette/etichette.pdf', headers: { cookie: who.cookie } });
      expect(res.statusCode).toBe(200);
      return (await pdfPages(res.rawPayload)).join(' ');
    };
    const en = await labels(englishAdmin);
    expect(en).toContain('Scan to pick up, return or report a problem');
    expect(en).toContain('Bike');
    expect(en).not.toContain('Scansiona');
    expect(await labels(italianAdmin)).toContain('Scansiona per ritirare, riconsegnare o segnalare un problema');
  });
});
