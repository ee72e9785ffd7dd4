import { beforeAll, describe, expect, it } from 'vitest';
import { loadDomains } from '../../lib/i18n';
import { dayHoursText, dayStatus, fitWindow, lastBookableDate, maxDurationText, ruleErrors, weeklyLimitText, type FormRules } from './booking-rules';
import { defaultBookingForm, suspensionText } from './dashboard-model';

// The texts in Italian, as the page of an Italian reader has them.
beforeAll(() => loadDomains('user'));

const TZ = 'Europe/Rome';
const WEEKDAY = { apertura: '07:00', chiusura: '23:00' };
const WEEKEND = { apertura: '08:00', chiusura: '22:00' };

/** Mon–Fri 07:00–23:00, Saturday 08:00–22:00, closed on Sunday; Christmas closed; 3 hours at most; 60 minutes' notice; 14 days ahead. */
const RULES: FormRules = {
  orari: [WEEKDAY, WEEKDAY, WEEKDAY, WEEKDAY, WEEKDAY, WEEKEND, null],
  chiusure: [{ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' }],
  durataMassimaMinuti: 180,
  preavvisoMinimoMinuti: 60,
  orizzonteGiorni: 14,
};

/** Monday 23 November 2026, 10:00 in Rome (CET). */
const MONDAY_10 = new Date('2026-11-23T09:00:00Z');
const at = { now: MONDAY_10, timeZone: TZ };
const form = (dataPrenotazione: string, orarioInizio: string, orarioFine: string) => ({
  dataPrenotazione,
  orarioInizio,
  orarioFine,
  destinazione: '',
  biciId: null,
});

describe("the day's hours", () => {
  it('tells the hours of an open day, a closed weekday and a closure', () => {
    expect(dayHoursText(dayStatus(RULES, '2026-11-24')!)).toBe('Orari del giorno: 07:00–23:00');
    expect(dayHoursText(dayStatus(RULES, '2026-11-28')!)).toBe('Orari del giorno: 08:00–22:00');
    expect(dayHoursText(dayStatus(RULES, '2026-11-29')!)).toBe('Chiuso');
    expect(dayHoursText(dayStatus(RULES, '2026-12-28')!)).toBe('Chiuso: Chiusura natalizia (dal 24/12/2026 al 06/01/2027)');
    expect(dayHoursText(dayStatus({ ...RULES, chiusure: [{ dal: '2026-12-08', al: '2026-12-08', motivo: 'Immacolata' }] }, '2026-12-08')!)).toBe(
      'Chiuso: Immacolata',
    );
    expect(dayStatus(RULES, '2026-02-30')).toBeNull();
  });

  it('says the maximum duration, or nothing when it is off', () => {
    expect(maxDurationText(RULES)).toBe('Durata massima: 3 ore');
    expect(maxDurationText({ durataMassimaMinuti: 90 })).toBe('Durata massima: 1 ora e 30 minuti');
    expect(weeklyLimitText({ prenotazioniSettimanaliMax: 3 })).toBe('Al massimo 3 prenotazioni in 7 giorni');
    expect(weeklyLimitText({ prenotazioniSettimanaliMax: 1 })).toBe('Al massimo 1 prenotazione in 7 giorni');
    expect(weeklyLimitText({ prenotazioniSettimanaliMax: null })).toBeNull();
    expect(maxDurationText({ durataMassimaMinuti: null })).toBeNull();
  });

  it('offers dates up to the horizon', () => {
    expect(lastBookableDate(RULES, '2026-11-23')).toBe('2026-12-07');
    expect(lastBookableDate({ orizzonteGiorni: null }, '2026-11-23')).toBeUndefined();
  });
});

describe('a window the rules refuse', () => {
  it('accepts a window inside the hours, short enough, with notice', () => {
    expect(ruleErrors(RULES, form('2026-11-24', '09:00', '11:00'), at)).toEqual({});
  });

  it('refuses a window outside the hours, on the field that is out', () => {
    expect(ruleErrors(RULES, form('2026-11-24', '06:30', '08:00'), at)).toEqual({
      orarioInizio: 'Il martedì il servizio è aperto dalle 07:00 alle 23:00',
    });
    expect(ruleErrors(RULES, form('2026-11-28', '21:00', '22:30'), at)).toEqual({
      orarioFine: 'Il sabato il servizio è aperto dalle 08:00 alle 22:00',
    });
  });

  it('refuses a closed day and a closure on the date, as the server says it', () => {
    expect(ruleErrors(RULES, form('2026-11-29', '10:00', '11:00'), at)).toEqual({ dataPrenotazione: 'La domenica il servizio è chiuso' });
    expect(ruleErrors(RULES, form('2026-12-28', '10:00', '11:00'), { ...at, now: new Date('2026-12-20T09:00:00Z') })).toEqual({
      dataPrenotazione: 'Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia',
    });
  });

  it('refuses a booking too long, too soon or too far ahead', () => {
    expect(ruleErrors(RULES, form('2026-11-24', '09:00', '12:30'), at)).toEqual({
      orarioFine: 'Una prenotazione può durare al massimo 3 ore',
    });
    expect(ruleErrors(RULES, form('2026-11-23', '10:30', '11:00'), at)).toEqual({
      orarioInizio: "Prenota almeno 1 ora prima dell'inizio",
    });
    expect(ruleErrors(RULES, form('2026-12-08', '10:00', '11:00'), at)).toEqual({
      dataPrenotazione: 'Puoi prenotare al massimo 14 giorni in anticipo',
    });
  });

  it('measures the duration in real time across a DST change', () => {
    // Sunday 25 October 2026 the clocks go back: 01:00–03:30 lasts 3 hours 30 minutes.
    const open = { ...RULES, orari: Array.from({ length: 7 }, () => ({ apertura: '00:00', chiusura: '23:59' })), orizzonteGiorni: null };
    const before = { now: new Date('2026-10-20T09:00:00Z'), timeZone: TZ };
    expect(ruleErrors(open, form('2026-10-25', '01:00', '03:30'), before).orarioFine).toBe('Una prenotazione può durare al massimo 3 ore');
    expect(ruleErrors(open, form('2026-10-26', '01:00', '03:30'), before)).toEqual({});
  });

  it('applies only hours and closures to an admin booking for a user', () => {
    const admin = { ...at, limits: false };
    expect(ruleErrors(RULES, form('2026-11-23', '10:05', '18:00'), admin)).toEqual({});
    expect(ruleErrors(RULES, form('2027-02-01', '06:00', '08:00'), admin)).toEqual({
      orarioInizio: 'Il lunedì il servizio è aperto dalle 07:00 alle 23:00',
    });
  });

  it('leaves an incomplete window and a start already past to the schema and the server', () => {
    expect(ruleErrors(RULES, form('', '10:00', '11:00'), at)).toEqual({});
    expect(ruleErrors(RULES, form('2026-11-24', '', '11:00'), at)).toEqual({});
    expect(ruleErrors(RULES, form('2026-11-24', '12:00', '11:00'), at)).toEqual({});
    expect(ruleErrors(RULES, form('2026-11-23', '09:00', '11:00'), at)).toEqual({});
  });
});

describe("the form's first window", () => {
  it('keeps the defaults when the rules allow them', () => {
    const open = { ...RULES, durataMassimaMinuti: null, preavvisoMinimoMinuti: null };
    const base = form('2026-11-24', '08:00', '18:00');
    expect(fitWindow(base, open, at)).toEqual(base);
  });

  it('shortens the window to the maximum duration and moves it past the notice', () => {
    // 10:00 now, an hour's notice: 11:00 (the next quarter after 11:01 is 11:15).
    expect(fitWindow(defaultBookingForm(MONDAY_10, TZ), RULES, at)).toMatchObject({
      dataPrenotazione: '2026-11-23',
      orarioInizio: '11:15',
      orarioFine: '14:15',
    });
  });

  it('moves to the next open day, inside its hours', () => {
    // Saturday 21:30: nothing left today; Sunday is closed; Monday from 08:00, 3 hours.
    const saturdayNight = { now: new Date('2026-11-28T20:30:00Z'), timeZone: TZ };
    expect(fitWindow(defaultBookingForm(saturdayNight.now, TZ), RULES, saturdayNight)).toMatchObject({
      dataPrenotazione: '2026-11-30',
      orarioInizio: '08:00',
      orarioFine: '11:00',
    });
    // Saturday at 06:00, opening at 09:00: spec §4's 08:00 moves to the opening.
    const saturday = {
      ...RULES,
      orari: [...RULES.orari.slice(0, 5), { apertura: '09:00', chiusura: '22:00' }, null],
      durataMassimaMinuti: null,
      preavvisoMinimoMinuti: null,
    };
    const early = { now: new Date('2026-11-28T05:00:00Z'), timeZone: TZ };
    expect(fitWindow(form('2026-11-28', '08:00', '18:00'), saturday, early)).toMatchObject({
      orarioInizio: '09:00',
      orarioFine: '18:00',
    });
  });

  it('skips a closure and gives up beyond the horizon', () => {
    const christmas = { now: new Date('2026-12-23T21:30:00Z'), timeZone: TZ };
    expect(fitWindow(form('2026-12-24', '08:00', '18:00'), { ...RULES, orizzonteGiorni: 30 }, christmas).dataPrenotazione).toBe('2027-01-07');
    const base = form('2026-12-24', '08:00', '18:00');
    expect(fitWindow(base, RULES, christmas)).toEqual(base);
  });
});

describe('a suspension', () => {
  it("says until when on the college's clock, and why", () => {
    expect(suspensionText({ fino: '2026-12-12T09:00:00.000Z', motivo: '3 mancati ritiri in 30 giorni' }, TZ)).toBe(
      'Non puoi prenotare fino al 12/12/2026 alle 10:00: 3 mancati ritiri in 30 giorni',
    );
  });
});
