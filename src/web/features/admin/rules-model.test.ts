import { describe, expect, it } from 'vitest';
import { tFor } from '../../../shared/i18n/all';
import type { AffectedBookingDto, RulesUpdate } from '../../../shared/schemas/rules';
import {
  affectedWhen,
  closurePeriod,
  closurePreviewText,
  closureRange,
  closureToast,
  deskDefaultWindow,
  firstErrorField,
  formatLocalDateTime,
  formToRules,
  generalErrors,
  maintenanceSummary,
  rulesFieldId,
  rulesToForm,
  suspensionRuleText,
  userChoiceDetail,
  validateClosure,
  validateMaintenance,
} from './rules-model';

const RULES: RulesUpdate = {
  orari: [
    ...Array.from({ length: 5 }, () => ({ apertura: '07:00', chiusura: '23:00' })),
    { apertura: '08:00', chiusura: '22:00' },
    null,
  ],
  durataMassimaMinuti: 180,
  prenotazioniSettimanaliMax: null,
  preavvisoMinimoMinuti: null,
  orizzonteGiorni: 14,
  attesaPagamentoMinuti: 15,
  mancatoRitiroMinuti: 30,
  offertaMinuti: 15,
  conservazioneMesi: 12,
  sospensione: null,
};

const italian = tFor('it');

const booking = (over: Partial<AffectedBookingDto> = {}): AffectedBookingDto => ({
  id: 1,
  utente: 'Marco Rossi',
  email: 'residente@bicielis.demo',
  biciNumero: '03',
  dataPrenotazione: '2026-12-24',
  orarioInizio: '10:00',
  orarioFine: '11:00',
  pagata: false,
  ...over,
});

describe('the rules form', () => {
  it('round-trips the rules: closed days, limits switched off, the suspension off', () => {
    const form = rulesToForm(RULES);
    expect(form.orari[6]).toEqual({ chiuso: true, apertura: '07:00', chiusura: '23:00' });
    expect(form.orari[5]).toEqual({ chiuso: false, apertura: '08:00', chiusura: '22:00' });
    expect(form.limiti.durataMassimaMinuti).toEqual({ attivo: true, valore: '180' });
    // A limit that is off shows a sensible value, greyed, ready to be switched on.
    expect(form.limiti.prenotazioniSettimanaliMax).toEqual({ attivo: false, valore: '5' });
    expect(form.sospensione).toEqual({ attiva: false, soglia: '3', finestraGiorni: '30', giorni: '7' });
    expect(formToRules(form, italian)).toEqual({ ok: true, rules: RULES });
  });

  it('switches a limit off as null and the suspension on with its numbers', () => {
    const form = rulesToForm(RULES);
    form.limiti.durataMassimaMinuti.attivo = false;
    form.sospensione.attiva = true;
    const result = formToRules(form, italian);
    expect(result.ok && result.rules.durataMassimaMinuti).toBeNull();
    expect(result.ok && result.rules.sospensione).toEqual({ soglia: 3, finestraGiorni: 30, giorni: 7 });
  });

  it("names each wrong field as the server does, the first one in the screen's order", () => {
    const form = rulesToForm(RULES);
    form.orari[2] = { chiuso: false, apertura: '20:00', chiusura: '08:00' };
    form.limiti.durataMassimaMinuti.valore = '';
    form.limiti.orizzonteGiorni.valore = '1.5';
    form.sospensione = { attiva: true, soglia: '', finestraGiorni: '400', giorni: '7' };
    form.offertaMinuti = '0';
    form.conservazioneMesi = '121';
    const result = formToRules(form, italian);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      'orari.2.chiusura': "L'orario di chiusura deve essere successivo a quello di apertura",
      durataMassimaMinuti: 'Durata massima non valida (da 1 a 1440 minuti)',
      orizzonteGiorni: 'Orizzonte non valido (da 1 a 365 giorni)',
      offertaMinuti: "Durata dell'offerta non valida (da 1 a 1440 minuti)",
      conservazioneMesi: 'Conservazione dei dati non valida (da 1 a 120 mesi)',
      'sospensione.soglia': 'Indica un numero',
      'sospensione.finestraGiorni': 'Da 1 a 365 giorni',
    });
    expect(result.first).toBe('orari.2.chiusura');
    expect(rulesFieldId(result.first)).toBe('regole-orari-2-chiusura');
  });

  it('says the suspension in a sentence, singular where it is one', () => {
    const form = rulesToForm(RULES).sospensione;
    expect(suspensionRuleText(form, italian)).toBe('Disattivata: i mancati ritiri non impediscono di prenotare.');
    expect(suspensionRuleText({ attiva: true, soglia: '1', finestraGiorni: '30', giorni: '1' }, italian)).toMatch(
      /^Dopo 1 mancato ritiro in 30 giorni l'utente non può prenotare per 1 giorno\./,
    );
    expect(suspensionRuleText({ attiva: true, soglia: '', finestraGiorni: 'x', giorni: '7' }, italian)).toMatch(/^Dopo 3 mancati ritiri in 30 giorni/);
  });

  it('ignores the hours of a closed day', () => {
    const form = rulesToForm(RULES);
    form.orari[6] = { chiuso: true, apertura: '', chiusura: '' };
    expect(formToRules(form, italian).ok).toBe(true);
  });

  it("keeps the server's errors that belong to no field apart", () => {
    const errors = { orari: 'Indica gli orari di tutti i giorni della settimana', 'sospensione.giorni': 'Da 1 a 365 giorni' };
    expect(firstErrorField(errors)).toBe('sospensione.giorni');
    expect(generalErrors(errors)).toEqual(['Indica gli orari di tutti i giorni della settimana']);
  });
});

describe('closures and maintenance', () => {
  it('writes dates the Italian way', () => {
    expect(closureRange({ dal: '2026-12-24', al: '2027-01-06' })).toBe('24/12/2026 – 06/01/2027');
    expect(closureRange({ dal: '2026-12-08', al: '2026-12-08' })).toBe('08/12/2026');
    expect(closurePeriod({ dal: '2026-12-24', al: '2027-01-06' }, italian)).toBe('dal 24/12/2026 al 06/01/2027');
    expect(closurePeriod({ dal: '2026-12-08', al: '2026-12-08' }, italian)).toBe('il 08/12/2026');
    expect(formatLocalDateTime('2026-11-23T08:30')).toBe('23/11/2026 08:30');
    expect(affectedWhen(booking())).toBe('24/12/2026, 10:00–11:00');
  });

  it('checks a closure and a maintenance with the server’s schemas', () => {
    expect(validateClosure({ dal: '2026-12-24', al: '2026-12-20', motivo: ' ' })).toEqual({
      ok: false,
      errors: { al: "L'ultimo giorno non può precedere il primo", motivo: 'Indica il motivo della chiusura' },
    });
    expect(validateClosure({ dal: '2026-12-24', al: '2027-01-06', motivo: ' Natale ' })).toEqual({
      ok: true,
      request: { dal: '2026-12-24', al: '2027-01-06', motivo: 'Natale' },
    });
    const wrong = validateMaintenance({ dal: '2026-11-23T10:00', al: '2026-11-23T09:00', motivo: 'Freni' });
    expect(wrong).toEqual({ ok: false, errors: { al: 'La fine deve essere successiva all’inizio' } });
    expect(validateMaintenance({ dal: '', al: '2026-11-23T09:00', motivo: 'Freni' }).ok).toBe(false);
  });

  it('asks to confirm a closure saying how many bookings it cancels and refunds', () => {
    const c = { dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' };
    expect(closurePreviewText(c, 1, 0, italian)).toBe(
      "Dal 24/12/2026 al 06/01/2027 (Chiusura natalizia) viene annullata 1 prenotazione. Ogni utente riceve un'email con il motivo.",
    );
    expect(closurePreviewText({ ...c, al: c.dal }, 1, 1, italian)).toBe(
      "Il 24/12/2026 (Chiusura natalizia) viene annullata 1 prenotazione, già pagata: sarà rimborsata. Ogni utente riceve un'email con il motivo.",
    );
    expect(closurePreviewText(c, 3, 2, italian)).toContain('vengono annullate 3 prenotazioni, di cui 2 pagate: saranno rimborsate.');
  });

  it('tells what a closure did and what a maintenance will do', () => {
    expect(closureToast({ chiusura: null, cancellate: [] }, italian)).toEqual({ title: 'Chiusura aggiunta' });
    expect(closureToast({ chiusura: null, cancellate: [booking(), booking({ id: 2, pagata: true })] }, italian).description).toBe(
      '2 prenotazioni annullate, 1 rimborsata. Gli utenti sono stati avvisati via email.',
    );
    expect(maintenanceSummary({ spostate: [], cancellate: [] }, italian)).toBe('Nessuna prenotazione coinvolta.');
    expect(maintenanceSummary({ spostate: [booking({ nuovaBiciNumero: '07' })], cancellate: [] }, italian)).toBe(
      '1 prenotazione spostata su un’altra bici.',
    );
    expect(maintenanceSummary({ spostate: [booking(), booking()], cancellate: [booking()] }, italian)).toBe(
      '2 prenotazioni spostate su altre bici, 1 annullata.',
    );
    expect(maintenanceSummary({ spostate: [], cancellate: [booking(), booking()] }, italian)).toBe('2 prenotazioni annullate.');
  });
});

describe('in English (issue 36)', () => {
  const english = tFor('en');

  it('says the suspension, a closure and its cancellations in English', () => {
    expect(suspensionRuleText({ attiva: true, soglia: '1', finestraGiorni: '30', giorni: '1' }, english)).toBe(
      'After 1 no-show in 30 days the user cannot book for 1 day. You can lift a suspension from the Users tab.',
    );
    expect(closurePeriod({ dal: '2026-12-08', al: '2026-12-08' }, english)).toBe('on 08/12/2026');
    const c = { dal: '2026-12-24', al: '2027-01-06', motivo: 'Chiusura natalizia' };
    expect(closurePreviewText(c, 1, 0, english)).toBe(
      'From 24/12/2026 to 06/01/2027 (Chiusura natalizia): 1 booking is cancelled. Each user gets an email with the reason.',
    );
    expect(closurePreviewText(c, 3, 1, english)).toBe(
      'From 24/12/2026 to 06/01/2027 (Chiusura natalizia): 3 bookings are cancelled, 1 of them paid: it will be refunded. Each user gets an email with the reason.',
    );
    expect(userChoiceDetail({ email: 'esterno@bicielis.demo', sigla: null, isResidente: false }, english)).toBe(
      'esterno@bicielis.demo · External user (paying)',
    );
  });
});

describe('the desk booking', () => {
  it('proposes the next quarter of an hour for an hour, tomorrow morning late at night', () => {
    // 10:07 in Rome (CET, UTC+1)
    expect(deskDefaultWindow(new Date('2026-11-23T09:07:00Z'), 'Europe/Rome')).toEqual({
      dataPrenotazione: '2026-11-23',
      orarioInizio: '10:15',
      orarioFine: '11:15',
    });
    // 22:50: 23:00 is still fine, ending at 23:59
    expect(deskDefaultWindow(new Date('2026-11-23T21:50:00Z'), 'Europe/Rome')).toEqual({
      dataPrenotazione: '2026-11-23',
      orarioInizio: '23:00',
      orarioFine: '23:59',
    });
    expect(deskDefaultWindow(new Date('2026-11-23T22:10:00Z'), 'Europe/Rome')).toEqual({
      dataPrenotazione: '2026-11-24',
      orarioInizio: '08:00',
      orarioFine: '09:00',
    });
  });

  it('describes a user found by the search', () => {
    expect(userChoiceDetail({ email: 'residente@bicielis.demo', sigla: 'ELIS001', isResidente: true }, italian)).toBe(
      'residente@bicielis.demo · ELIS001 · Residente',
    );
    expect(userChoiceDetail({ email: 'esterno@bicielis.demo', sigla: null, isResidente: false }, italian)).toBe(
      'esterno@bicielis.demo · Esterno (a pagamento)',
    );
  });
});
