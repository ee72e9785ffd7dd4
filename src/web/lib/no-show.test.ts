import { describe, expect, it } from 'vitest';
import { noShowNotRefunded } from './no-show';

describe('the no-show notice before paying', () => {
  it('names the server’s minutes once they are known', () => {
    expect(noShowNotRefunded(30)).toBe("Se non ritiri la bicicletta entro 30 minuti dall'inizio, la prenotazione viene annullata e non rimborsata.");
    expect(noShowNotRefunded(45)).toContain('entro 45 minuti');
  });

  it('says it without a number until then', () => {
    expect(noShowNotRefunded(undefined)).toBe(
      "Se non ritiri la bicicletta entro il tempo previsto dall'inizio, la prenotazione viene annullata e non rimborsata.",
    );
  });
});
