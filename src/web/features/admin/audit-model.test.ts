import { describe, expect, it } from 'vitest';
import { tFor } from '../../../shared/i18n/all';
import { auditChanges, formatAuditValue } from './audit-model';

const TZ = 'Europe/Rome';
const italian = tFor('it');

describe('formatAuditValue', () => {
  it('reads as a person would: Sì/No, instants on the college clock, lists, a dash for nothing', () => {
    expect(formatAuditValue(true, TZ, italian)).toBe('Sì');
    expect(formatAuditValue(false, TZ, italian)).toBe('No');
    expect(formatAuditValue(null, TZ, italian)).toBe('—');
    expect(formatAuditValue('', TZ, italian)).toBe('—');
    expect(formatAuditValue(3, TZ, italian)).toBe('3');
    expect(formatAuditValue('manutenzione', TZ, italian)).toBe('manutenzione');
    // 23:30 UTC on 20 November is 00:30 on the 21st in Rome; a calendar day stays as it is.
    expect(formatAuditValue('2026-11-20T23:30:00.000Z', TZ, italian)).toBe('21/11/2026 00:30');
    expect(formatAuditValue('2026-11-20', TZ, italian)).toBe('2026-11-20');
    expect(formatAuditValue([4, 5], TZ, italian)).toBe('4, 5');
    expect(formatAuditValue([], TZ, italian)).toBe('—');
    expect(formatAuditValue([{ apertura: '07:00' }], TZ, italian)).toBe('[{"apertura":"07:00"}]');
    expect(formatAuditValue({ soglia: 3 }, TZ, italian)).toBe('{"soglia":3}');
  });
});

describe('auditChanges', () => {
  it('a change: only the fields that differ, in Italian, before and after', () => {
    const before = { id: 7, nome: 'Anna', email: 'a@elis.org', attiva: true, createdAt: '2026-11-01T09:00:00.000Z' };
    const after = { id: 7, nome: 'Anna Maria', email: 'a@elis.org', attiva: false, createdAt: '2026-11-01T09:00:00.000Z' };
    expect(auditChanges(before, after, TZ, italian)).toEqual([
      { field: 'nome', label: 'Nome', before: 'Anna', after: 'Anna Maria' },
      { field: 'attiva', label: 'Account attivo', before: 'Sì', after: 'No' },
    ]);
  });

  it('a field that appears or disappears counts as changed; an unknown field keeps its name', () => {
    expect(auditChanges({ stato: 'disponibile' }, { stato: 'manutenzione', futureBookings: 2, extra: 'x' }, TZ, italian)).toEqual([
      { field: 'stato', label: 'Stato', before: 'disponibile', after: 'manutenzione' },
      { field: 'futureBookings', label: 'Prenotazioni future', before: '—', after: '2' },
      { field: 'extra', label: 'extra', before: '—', after: 'x' },
    ]);
  });

  it('a creation shows every field after; a removal every field before', () => {
    expect(auditChanges(null, { numero: 'B-12', modello: 'City' }, TZ, italian)).toEqual([
      { field: 'numero', label: 'Numero', before: '—', after: 'B-12' },
      { field: 'modello', label: 'Modello', before: '—', after: 'City' },
    ]);
    expect(auditChanges({ motivo: 'Inventario' }, null, TZ, italian)).toEqual([{ field: 'motivo', label: 'Motivo', before: 'Inventario', after: '—' }]);
  });

  it('nothing changed, nothing recorded, or a value that is not an object', () => {
    expect(auditChanges({ a: 1 }, { a: 1 }, TZ, italian)).toEqual([]);
    // user.update's after adds `sospesoFino: null` to the before's fields: no change to show.
    expect(auditChanges({ nome: 'A' }, { nome: 'A', sospesoFino: null }, TZ, italian)).toEqual([]);
    expect(auditChanges(null, null, TZ, italian)).toEqual([]);
    expect(auditChanges('prima', 'dopo', TZ, italian)).toEqual([{ field: '', label: 'Valore', before: 'prima', after: 'dopo' }]);
  });
});

describe('in English (issue 36)', () => {
  it('names the fields and the yes/no in English', () => {
    const english = tFor('en');
    expect(auditChanges({ nome: 'Anna', attiva: true }, { nome: 'Anna Maria', attiva: false }, TZ, english)).toEqual([
      { field: 'nome', label: 'First name', before: 'Anna', after: 'Anna Maria' },
      { field: 'attiva', label: 'Account active', before: 'Yes', after: 'No' },
    ]);
    expect(auditChanges('prima', 'dopo', TZ, english)).toEqual([{ field: '', label: 'Value', before: 'prima', after: 'dopo' }]);
    // A field named like an object's own property is no label.
    expect(auditChanges({ toString: 1 }, { toString: 2 }, TZ, english)).toEqual([{ field: 'toString', label: 'toString', before: '1', after: '2' }]);
  });
});
