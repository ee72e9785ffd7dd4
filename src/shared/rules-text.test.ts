import { describe, expect, it } from 'vitest';
import { inLingua, tFor } from './i18n/all.js';
import { weekdayLabel } from './weekdays.js';
import { closureSentence, closureText, hoursSentence, italianDuration, tooLongText, tooShortNoticeText, weekdayIndex } from './rules-text.js';

const it_ = tFor('it');
const en = tFor('en');

describe('the rules in words', () => {
  it('finds the weekday of a date, Monday first, whatever the time zone', () => {
    expect(weekdayIndex('2026-11-23')).toBe(0); // a Monday
    expect(weekdayIndex('2026-11-29')).toBe(6); // a Sunday
    expect(weekdayIndex('2026-03-29')).toBe(6); // Rome's spring DST change, a Sunday
  });

  it('says durations in Italian', () => {
    expect(italianDuration(180, it_)).toBe('3 ore');
    expect(italianDuration(60, it_)).toBe('1 ora');
    expect(italianDuration(90, it_)).toBe('1 ora e 30 minuti');
    expect(italianDuration(45, it_)).toBe('45 minuti');
    expect(italianDuration(121, it_)).toBe('2 ore e 1 minuto');
  });

  it('says durations up to a week as it always did in Italian', () => {
    const before = (minutes: number) => {
      const h = Math.floor(minutes / 60);
      const m = minutes % 60;
      const hours = h === 1 ? '1 ora' : `${h} ore`;
      const mins = m === 1 ? '1 minuto' : `${m} minuti`;
      if (h === 0) return mins;
      return m === 0 ? hours : `${hours} e ${mins}`;
    };
    const differing: number[] = [];
    for (let minutes = 0; minutes <= 10080; minutes += minutes < 1500 ? 1 : 37) if (italianDuration(minutes, it_) !== before(minutes)) differing.push(minutes);
    expect(differing).toEqual([]);
  });

  it('says durations in English', () => {
    expect(italianDuration(180, en)).toBe('3 hours');
    expect(italianDuration(60, en)).toBe('1 hour');
    expect(italianDuration(90, en)).toBe('1 hour and 30 minutes');
    expect(italianDuration(45, en)).toBe('45 minutes');
    expect(italianDuration(1, en)).toBe('1 minute');
    expect(italianDuration(121, en)).toBe('2 hours and 1 minute');
    expect(italianDuration(10080, en)).toBe('168 hours');
  });

  it('writes the refusal of a closure as the issue quotes it', () => {
    expect(closureSentence({ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' }, it_)).toBe(
      'Il servizio è chiuso dal 24/12/2026 al 06/01/2027: Chiusura natalizia',
    );
    expect(closureSentence({ dal: '2026-12-08', al: '2026-12-08', motivo: 'Immacolata' }, it_)).toBe('Il servizio è chiuso il 08/12/2026: Immacolata');
  });

  it('writes the refusal of a closure in English, the reason as the admin wrote it', () => {
    expect(closureSentence({ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' }, en)).toBe(
      'The service is closed from 24/12/2026 to 06/01/2027: Chiusura natalizia',
    );
    expect(closureSentence({ dal: '2026-12-08', al: '2026-12-08', motivo: 'Immacolata' }, en)).toBe('The service is closed on 08/12/2026: Immacolata');
    expect(inLingua('en', closureText({ dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' }))).toBe(
      'The service is closed from 24/12/2026 to 06/01/2027: Chiusura natalizia',
    );
  });

  it("names the day's hours or that it is closed", () => {
    expect(hoursSentence('2026-11-23', { apertura: '07:00', chiusura: '23:00' }, it_)).toBe('Il lunedì il servizio è aperto dalle 07:00 alle 23:00');
    expect(hoursSentence('2026-11-29', null, it_)).toBe('La domenica il servizio è chiuso');
    const names = ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'];
    for (let day = 23; day <= 29; day++) {
      const name = names[day - 23]!;
      expect(hoursSentence(`2026-11-${day}`, null, it_)).toBe(`${name === 'domenica' ? 'La' : 'Il'} ${name} il servizio è chiuso`);
    }
  });

  it("names the day's hours or that it is closed in English", () => {
    expect(hoursSentence('2026-11-23', { apertura: '07:00', chiusura: '23:00' }, en)).toBe('On Mondays the service is open from 07:00 to 23:00');
    expect(hoursSentence('2026-11-28', { apertura: '09:00', chiusura: '12:00' }, en)).toBe('On Saturdays the service is open from 09:00 to 12:00');
    expect(hoursSentence('2026-11-29', null, en)).toBe('On Sundays the service is closed');
  });

  it('refuses a window too long or too soon in either language', () => {
    expect(inLingua('it', tooLongText(180))).toBe('Una prenotazione può durare al massimo 3 ore');
    expect(inLingua('it', tooShortNoticeText(90))).toBe("Prenota almeno 1 ora e 30 minuti prima dell'inizio");
    expect(inLingua('en', tooLongText(180))).toBe('A booking can last at most 3 hours');
    expect(inLingua('en', tooShortNoticeText(90))).toBe('Book at least 1 hour and 30 minutes before the start');
  });
});

describe('the weekdays of the rules', () => {
  it('are named in either language, Monday first', () => {
    expect([0, 6].map((i) => weekdayLabel(i, 'it'))).toEqual(['Lunedì', 'Domenica']);
    expect([0, 6].map((i) => weekdayLabel(i, 'en'))).toEqual(['Monday', 'Sunday']);
  });
});
