import { sql } from 'drizzle-orm';
import type { DayHours, PublicRulesDto, RulesDto, RulesUpdate, SedeHours } from '../../../shared/schemas/rules.js';
import { zonedToday } from '../../../shared/time.js';
import { runTransaction } from '../../db/transaction.js';
import { writeAudit, type Actor } from '../audit/index.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { suspensionOf } from './fair-use.js';
import { currentRules, loadRules, rulesOfSede, type Rules } from './store.js';
import { chosenSede } from './check.js';
import { notFound } from '../../http/errors.js';
import { testo } from '../../../shared/i18n/index.js';
import { orariSede } from './tables.js';

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

/** GET /api/regole — what the booking form needs, with the user's own suspension; the hours and closures of one sede (issue 47). */
export async function publicRules(deps: RulesDeps, userId: number, sede: { asked?: number | undefined; home: number }): Promise<PublicRulesDto> {
  const install = await currentRules(deps);
  const rules = rulesOfSede(install, chosenSede(install, sede.asked, sede.home));
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

/** The sede's own week, or null (the install's); 404 when there is no such sede. */
async function readSedeHours(db: Pick<Db, 'execute'>, sedeId: number, open: boolean): Promise<SedeHours> {
  const { rows } = await db.execute<{ orari: DayHours[] | null }>(sql`
    select (select o.orari from ${orariSede} o where o.sede_id = s.id) as orari
      from sedi s where s.id = ${sedeId} ${open ? sql`and s.archiviata_at is null` : sql``}`);
  if (!rows[0]) throw notFound(testo('schemas.sedeNotFound'), 'SEDE_NOT_FOUND');
  return { orari: rows[0].orari };
}

/** GET /api/admin/sedi/:id/orari (issue 47) — from the database, as the admin's screen shows what is stored. */
export async function getSedeHours(deps: Pick<RulesDeps, 'db'>, sedeId: number): Promise<SedeHours> {
  return readSedeHours(deps.db, sedeId, false);
}

/**
 * PUT /api/admin/sedi/:id/orari (issue 47) — an open sede's own week, or null: back to the
 * install's. Audited as a change of the rules, before/after with the sede; every process hears
 * of it (NOTIFY). Bookings already made keep their hours, as when the install's change.
 */
export async function updateSedeHours(deps: RulesDeps, actor: Actor, sedeId: number, input: SedeHours): Promise<SedeHours> {
  const now = deps.clock.now();
  return runTransaction(deps.db, async (tx) => {
    await tx.execute(sql`select 1 from sedi where id = ${sedeId} for key share`);
    const before = await readSedeHours(tx, sedeId, true);
    const after = { orari: input.orari };
    // Saving what is already there changes nothing, and is no change to record.
    if (JSON.stringify(before) === JSON.stringify(after)) return after;
    // triggers: NOTIFY bicielis_regole
    if (input.orari === null) await tx.execute(sql`delete from ${orariSede} where sede_id = ${sedeId}`);
    else {
      await tx.execute(sql`
        insert into ${orariSede} (sede_id, orari, updated_at, updated_by)
        values (${sedeId}, ${JSON.stringify(input.orari)}::jsonb, ${now.toISOString()}::timestamptz, ${actor.email})
        on conflict (sede_id) do update set orari = excluded.orari, updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    }
    await writeAudit(tx, actor, { action: 'rules.update', entity: 'rules', entityId: 1, before: { sedeId, ...before }, after: { sedeId, ...after } }, now);
    return after;
  });
}
