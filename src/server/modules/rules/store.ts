import { sql } from 'drizzle-orm';
import type { DayHours, RulesUpdate } from '../../../shared/schemas/rules.js';
import { END_OF_DAY } from '../../../shared/schemas/rules.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { NotifiedCache } from '../../db/notifications.js';

/** The channel the triggers of drizzle/0011 notify on every change of the rules or closures. */
export const RULES_CHANNEL = 'bicielis_regole';

/**
 * A limit switched off where the life cycle needs a number: ten years. A payment hold that is
 * off lasts until the booking's start; a no-show that is off is released at the booking's end.
 */
export const OFF_MINUTES = 5_256_000;

export interface ClosureRule {
  id: number;
  dal: string;
  al: string;
  motivo: string;
  /** The one sede closed (issue 47); null: every sede. */
  sedeId: number | null;
}

/**
 * The rules as every check reads them: the row of `regole` and the closures still to come.
 * Read for the install, `orari` are the install's and `chiusure` every sede's; `rulesOfSede`
 * gives one sede's (its own week if it has one, the closures of every sede and its own).
 */
export interface Rules extends RulesUpdate {
  conservazioneMesi: number;
  chiusure: ClosureRule[];
  updatedAt: Date;
  updatedBy: string | null;
  /** The sedi with a week of their own (issue 47, `orari_sede`), by id. */
  orariSede: ReadonlyMap<number, DayHours[]>;
  /**
   * The open sedi, the first one first (the sede a row without one goes to): the window check
   * refuses another without a query, GET /api/config gives them to the registration's picker.
   */
  sediAperte: readonly { id: number; nome: string }[];
}

/** BOOKING_HORIZON_DAYS, PAYMENT_HOLD_MINUTES, NO_SHOW_MINUTES, WAITLIST_OFFER_MINUTES and RETENTION_MONTHS when unset (config.ts). */
const CONFIG_DEFAULTS = { bookingHorizonDays: 30, paymentHoldMinutes: 30, noShowMinutes: 30, waitlistOfferMinutes: 15, retentionMonths: 24 };

type RulesConfig = Pick<Config, 'bookingHorizonDays' | 'paymentHoldMinutes' | 'noShowMinutes' | 'waitlistOfferMinutes' | 'retentionMonths'>;

const OPEN_ALL_DAY: NonNullable<DayHours> = { apertura: '00:00', chiusura: END_OF_DAY };

/** The rules before an admin sets any: today's behaviour (the environment's horizon, hold and no-show). */
export function defaultRules(config: RulesConfig): RulesUpdate & { conservazioneMesi: number } {
  return {
    orari: Array.from({ length: 7 }, (): DayHours => OPEN_ALL_DAY),
    durataMassimaMinuti: null,
    prenotazioniSettimanaliMax: null,
    preavvisoMinimoMinuti: null,
    orizzonteGiorni: config.bookingHorizonDays,
    attesaPagamentoMinuti: config.paymentHoldMinutes,
    mancatoRitiroMinuti: config.noShowMinutes,
    offertaMinuti: config.waitlistOfferMinutes,
    conservazioneMesi: config.retentionMonths,
    sospensione: null,
  };
}

/**
 * Writes the first-start row from the environment's defaults, once: an existing row (an admin's
 * rules) is never overwritten. Environment variables are only first-start defaults (issue 20).
 */
export async function ensureRulesRow(db: Db, config: RulesConfig): Promise<void> {
  const d = defaultRules(config);
  // triggers: NOTIFY bicielis_regole
  await db.execute(sql`
    insert into regole (id, orari, orizzonte_giorni, attesa_pagamento_minuti, mancato_ritiro_minuti, offerta_minuti, conservazione_mesi)
    values (1, ${JSON.stringify(d.orari)}::jsonb, ${d.orizzonteGiorni}, ${d.attesaPagamentoMinuti}, ${d.mancatoRitiroMinuti}, ${d.offertaMinuti}, ${d.conservazioneMesi})
    on conflict (id) do nothing`);
  // A row made before migration 0014 gets the retention period once, from RETENTION_MONTHS.
  // triggers: NOTIFY bicielis_regole
  await db.execute(sql`update regole set conservazione_mesi = ${d.conservazioneMesi} where id = 1 and conservazione_mesi is null`);
}

type RulesRow = {
  orari: DayHours[];
  durata_massima_minuti: number | null;
  prenotazioni_settimanali_max: number | null;
  preavviso_minimo_minuti: number | null;
  orizzonte_giorni: number | null;
  attesa_pagamento_minuti: number | null;
  mancato_ritiro_minuti: number | null;
  offerta_minuti: number;
  conservazione_mesi: number | null;
  sospensione_soglia: number | null;
  sospensione_finestra_giorni: number | null;
  sospensione_giorni: number | null;
  updated_at: Date | string;
  updated_by: string | null;
  chiusure: ClosureRule[];
  orari_sede: [number, DayHours[]][];
  sedi_aperte: { id: number; nome: string }[];
};

/** A handle that can run a statement: the pool or a transaction. */
export type Executor = Pick<Db, 'execute'>;

/**
 * Reads the rules and every closure (a few a year: the checks compare them with the clock's
 * day, which is not the database's date in tests and tools run at a chosen instant). In a transaction, after its locks, this is
 * the rules as of that moment (the booking's own check, decision 024).
 */
export async function loadRules(db: Executor): Promise<Rules> {
  const { rows } = await db.execute<RulesRow>(sql`
    select r.*,
           coalesce((select json_agg(json_build_object('id', c.id, 'dal', c.dal::text, 'al', c.al::text, 'motivo', c.motivo, 'sedeId', c.sede_id)
                                     order by c.dal)
                       from chiusure c), '[]'::json) as chiusure,
           coalesce((select json_agg(json_build_array(o.sede_id, o.orari)) from orari_sede o), '[]'::json) as orari_sede,
           coalesce((select json_agg(json_build_object('id', s.id, 'nome', s.nome) order by s.id) from sedi s where s.archiviata_at is null), '[]'::json) as sedi_aperte
      from regole r where r.id = 1`);
  const r = rows[0];
  // ensureRulesRow makes the row at every start; should it be gone all the same (deleted by
  // hand), bookings go on under the environment's documented defaults rather than fail.
  if (!r) return { ...defaultRules(CONFIG_DEFAULTS), chiusure: [], updatedAt: new Date(0), updatedBy: null, orariSede: new Map(), sediAperte: [] };
  return {
    orari: r.orari,
    durataMassimaMinuti: r.durata_massima_minuti,
    prenotazioniSettimanaliMax: r.prenotazioni_settimanali_max,
    preavvisoMinimoMinuti: r.preavviso_minimo_minuti,
    orizzonteGiorni: r.orizzonte_giorni,
    attesaPagamentoMinuti: r.attesa_pagamento_minuti,
    mancatoRitiroMinuti: r.mancato_ritiro_minuti,
    offertaMinuti: r.offerta_minuti,
    conservazioneMesi: r.conservazione_mesi ?? CONFIG_DEFAULTS.retentionMonths,
    sospensione:
      r.sospensione_soglia !== null && r.sospensione_finestra_giorni !== null && r.sospensione_giorni !== null
        ? { soglia: r.sospensione_soglia, finestraGiorni: r.sospensione_finestra_giorni, giorni: r.sospensione_giorni }
        : null,
    chiusure: r.chiusure,
    updatedAt: new Date(r.updated_at),
    updatedBy: r.updated_by,
    orariSede: new Map(r.orari_sede),
    sediAperte: r.sedi_aperte,
  };
}

/** Each reading's rules per sede, made once: the window check of every request reads them. */
const perSede = new WeakMap<Rules, Map<number, Rules>>();

/**
 * One sede's rules (issue 47): its own week when it has one, else the install's; the closures
 * of every sede and its own. The limits are the install's. Kept with the reading they come from.
 */
export function rulesOfSede(rules: Rules, sedeId: number): Rules {
  let bySede = perSede.get(rules);
  if (!bySede) {
    bySede = new Map();
    perSede.set(rules, bySede);
  }
  let own = bySede.get(sedeId);
  if (!own) {
    own = {
      ...rules,
      orari: rules.orariSede.get(sedeId) ?? rules.orari,
      chiusure: rules.chiusure.filter((c) => c.sedeId === null || c.sedeId === sedeId),
    };
    bySede.set(sedeId, own);
  }
  return own;
}

/**
 * The rules in memory, one copy per process, dropped on every notification of the channel
 * (any process's change) and not used at all while the listening connection is down: then
 * every read goes to the database, as for the session cache (decision 008). A load that a
 * notification overtook is not kept.
 */
export class RulesCache implements NotifiedCache {
  private active = false;
  private generation = 0;
  private value: Promise<Rules> | undefined;

  apply(): void {
    this.generation++;
    this.value = undefined;
  }

  setActive(active: boolean): void {
    this.active = active;
    this.generation++;
    this.value = undefined;
  }

  get(db: Executor): Promise<Rules> {
    if (!this.active) return loadRules(db);
    if (this.value) return this.value;
    const generation = this.generation;
    const loading = loadRules(db);
    this.value = loading;
    loading.then(
      () => {
        if (this.generation !== generation && this.value === loading) this.value = undefined;
      },
      () => {
        if (this.value === loading) this.value = undefined;
      },
    );
    return loading;
  }
}

/**
 * The current rules, from the process's cache when the caller was handed it (main.ts makes it
 * and puts it on the listener; buildApp hands it to the services) and it is live, else from the database.
 */
export const currentRules = ({ db, rulesCache }: { db: Db; rulesCache?: RulesCache | undefined }): Promise<Rules> =>
  rulesCache ? rulesCache.get(db) : loadRules(db);

/** The life cycle's numbers: a switched-off hold or no-show as OFF_MINUTES. */
export function lifecycleMinutes(rules: Pick<Rules, 'attesaPagamentoMinuti' | 'mancatoRitiroMinuti'>) {
  return { hold: rules.attesaPagamentoMinuti ?? OFF_MINUTES, noShow: rules.mancatoRitiroMinuti ?? OFF_MINUTES };
}
