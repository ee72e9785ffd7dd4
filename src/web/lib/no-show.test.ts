import { describe, expect, it } from 'vitest';
import { tFor } from '../../shared/i18n/all';
import { noShowNotRefunded } from './no-show';

const italian = tFor('it');

describe('the no-show notice before paying', () => {
  it('names the server’s minutes once they are known', () => {
    expect(noShowNotRefunded(30, italian)).toBe("Se non ritiri la bicicletta entro 30 minuti dall'inizio, la prenotazione viene annullata e non rimborsata.");
    expect(noShowNotRefunded(45, italian)).toContain('entro 45 minuti');
  });

  it('says it without a number until then', () => {
    expect(noShowNotRefunded(undefined, italian)).toBe(
      "Se non ritiri la bicicletta entro il tempo previsto dall'inizio, la prenotazione viene annullata e non rimborsata.",
    );
  });
});
