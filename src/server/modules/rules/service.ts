import { sql } from 'drizzle-orm';
import type { PublicRulesDto, RulesDto, RulesUpdate } from '../../../shared/schemas/rules.js';
import { zonedToday } from '../../../shared/time.js';
import { runTransaction } from '../../db/transaction.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { suspensionOf } from './fair-use.js';
import { currentRules, loadRules, type Rules } from './store.js';

/* The service's rules (issue 20): the admin's screen reads and writes them, the booking form reads its part. */

const rulesDto = (r: Rules): RulesDto => ({
  orari: r.orari,
  durataMassimaMinuti: r.durataMassimaMinuti,
  prenotazioniSettimanaliMax: r.prenotazioniSettimanaliMax,
  preavvisoMinimoMinuti: r.preavvisoMinimoMinuti,
  orizzonteGiorni: r.orizzonteGiorni,
  attesaPagamentoMinuti: r.attesaPagamentoMinuti,
  mancatoRitiroMinuti: r.mancatoRitiroMinuti,
  offertaMinuti: r.offertaMinuti,
  conservazioneMesi: r.conservazioneMesi,
  sospensione: r.sospensione,
  updatedAt: r.updatedAt.toISOString(),
  updatedBy: r.updatedBy,
});

/** GET /api/admin/regole — read from the database, not the cache: the screen shows what is stored. */
/** What the rules' services need (the admin's deps satisfy it). */
export interface RulesDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'timeZone'>;
}

export async function getRules(deps: Pick<RulesDeps, 'db'>): Promise<RulesDto> {
  return rulesDto(await loadRules(deps.db));
}

/** PUT /api/admin/regole — the whole set, audited before/after; every process hears of it (NOTIFY). */
export async function updateRules(deps: RulesDeps, actor: Actor, input: RulesUpdate): Promise<RulesDto> {
  const now = deps.clock.now();
  const after = await runTransaction(deps.db, async (tx) => {
    await tx.execute(sql`select 1 from regole where id = 1 for update`);
    const before = await loadRules(tx);
    const s = input.sospensione;
    // triggers: NOTIFY bicielis_regole
    await tx.execute(sql`
      update regole set orari = ${JSON.stringify(input.orari)}::jsonb,
             durata_massima_minuti = ${input.durataMassimaMinuti},
             prenotazioni_settimanali_max = ${input.prenotazioniSettimanaliMax},
             preavviso_minimo_minuti = ${input.preavvisoMinimoMinuti},
             orizzonte_giorni = ${input.orizzonteGiorni},
             attesa_pagamento_minuti = ${input.attesaPagamentoMinuti},
             mancato_ritiro_minuti = ${input.mancatoRitiroMinuti},
             offerta_minuti = ${input.offertaMinuti},
             conservazione_mesi = coalesce(${input.conservazioneMesi ?? null}::integer, conservazione_mesi),
             sospensione_soglia = ${s?.soglia ?? null},
             sospensione_finestra_giorni = ${s?.finestraGiorni ?? null},
             sospensione_giorni = ${s?.giorni ?? null},
             updated_at = ${now.toISOString()}::timestamptz,
             updated_by = ${actor.email}
       where id = 1`);
    const after = await loadRules(tx);
    await writeAudit(tx, actor, { action: 'rules.update', entity: 'rules', entityId: 1, before: rulesDto(before), after: rulesDto(after) }, now);
    return after;
  });
  return rulesDto(after);
}

/** GET /api/regole — what the booking form needs, with the user's own suspension. */
export async function publicRules(deps: RulesDeps, userId: number): Promise<PublicRulesDto> {
  const rules = await currentRules(deps);
  const now = deps.clock.now();
  const today = zonedToday(now, deps.config.timeZone);
  return {
    orari: rules.orari,
    durataMassimaMinuti: rules.durataMassimaMinuti,
    preavvisoMinimoMinuti: rules.preavvisoMinimoMinuti,
    orizzonteGiorni: rules.orizzonteGiorni,
    prenotazioniSettimanaliMax: rules.prenotazioniSettimanaliMax,
    offertaMinuti: rules.offertaMinuti,
    chiusure: rules.chiusure.filter((c) => c.al >= today).map(({ dal, al, motivo }) => ({ dal, al, motivo })),
    sospensione: await suspensionOf(deps.db, userId, rules, now, 'user'),
  };
}
