import { sql } from 'drizzle-orm';
import { DATA_EXPORT_FORMAT, DATA_EXPORT_VERSION, type DataExport } from '../../../shared/schemas/privacy.js';
import type { Db } from '../../db/client.js';
import { unauthorized } from '../../http/errors.js';

/*
 * `Scarica i miei dati` (issue 23, decision 029): everything the database holds about one
 * person, read at request time, in the format of shared/schemas/privacy.ts
 * (docs/data-export.md). One statement per section; `generatoIl` says when it was made.
 */

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

type Row = Record<string, unknown>;

async function rows<T extends Row>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db.execute<T>(query)).rows as T[];
}

type AccountRow = {
  id: number; nome: string; cognome: string; email: string; ruolo: 'admin' | 'user'; is_residente: boolean;
  sigla_residente: string | null; attiva: boolean; must_change_password: boolean; sospensione_revocata_at: string | null;
  totp_attivo_at: string | null; codici_recupero: number;
  created_at: string; updated_at: string; r_sigla: string | null; corso_di_studi: string | null; anno_corso: number | null;
};

/** The account, with its resident code and its second factor; 401 once it is gone. */
async function accountOf(db: Db, userId: number): Promise<DataExport['account']> {
  const [account] = await rows<AccountRow>(db, sql`
    select u.id, u.nome, u.cognome, u.email, u.ruolo, u.is_residente, u.sigla_residente, u.attiva, u.must_change_password,
           u.sospensione_revocata_at, u.created_at, u.updated_at, r.sigla as r_sigla, r.corso_di_studi, r.anno_corso,
           u.totp_attivo_at,
           (select count(*)::int from codici_recupero c where c.user_id = u.id and c.usato_at is null) as codici_recupero
      from users u left join residenti r on r.sigla = u.sigla_residente
     where u.id = ${userId}`);
  if (!account) throw unauthorized();
  return {
    id: account.id,
    nome: account.nome,
    cognome: account.cognome,
    email: account.email,
    ruolo: account.ruolo,
    isResidente: account.is_residente,
    siglaResidente: account.sigla_residente,
    codiceResidente:
      account.r_sigla === null
        ? null
        : { sigla: account.r_sigla, corsoDiStudi: account.corso_di_studi, annoCorso: account.anno_corso },
    attiva: account.attiva,
    cambioPasswordRichiesto: account.must_change_password,
    sospensioneRevocataIl: isoOrNull(account.sospensione_revocata_at),
    verificaInDuePassaggi:
      account.totp_attivo_at === null ? null : { attivaDal: iso(account.totp_attivo_at), codiciDiRecuperoRimasti: account.codici_recupero },
    creatoIl: iso(account.created_at),
    aggiornatoIl: iso(account.updated_at),
  };
}

type BookingRow = {
  id: number; data: string; orario_inizio: string; orario_fine: string; inizio: string; fine: string; destinazione: string | null;
  stato: 'attiva' | 'completata' | 'cancellata' | 'offerta'; motivo_cancellazione: string | null; bici_id: number; numero: string;
  modello: string; ritirata_at: string | null; riconsegnata_at: string | null; created_at: string;
  promemoria_inizio_at: string | null; promemoria_fine_at: string | null; ritardo_avvisato_at: string | null; offerta_avvisata_at: string | null;
  pay_id: number | null; provider: 'stripe' | 'simulated' | null; provider_payment_id: string | null; amount: number | null;
  currency: string | null; status: 'pending' | 'completed' | 'failed' | 'refunded' | null; pay_created_at: string | null;
  completed_at: string | null; refunded_at: string | null;
};

/** The bookings with their bike and payment, newest first (also what the notices are read from). */
function bookingRowsOf(db: Db, userId: number): Promise<BookingRow[]> {
  return rows<BookingRow>(db, sql`
    select p.id, p.data_prenotazione::text as data, p.orario_inizio, p.orario_fine, p.inizio, p.fine, p.destinazione, p.stato,
           p.motivo_cancellazione, b.id as bici_id, b.numero, b.modello, p.ritirata_at, p.riconsegnata_at, p.created_at,
           p.promemoria_inizio_at, p.promemoria_fine_at, p.ritardo_avvisato_at, p.offerta_avvisata_at,
           pay.id as pay_id, pay.provider, pay.provider_payment_id, pay.amount, pay.currency, pay.status,
           pay.created_at as pay_created_at, pay.completed_at, pay.refunded_at
      from prenotazioni p
      join biciclette b on b.id = p.bici_id
      left join pagamenti pay on pay.prenotazione_id = p.id
     where p.user_id = ${userId}
     order by p.inizio desc, p.id desc`);
}

function bookingOf(b: BookingRow): DataExport['prenotazioni'][number] {
  return {
    id: b.id,
    dataPrenotazione: b.data,
    orarioInizio: b.orario_inizio,
    orarioFine: b.orario_fine,
    inizio: iso(b.inizio),
    fine: iso(b.fine),
    destinazione: b.destinazione,
    stato: b.stato,
    motivoCancellazione: b.motivo_cancellazione,
    bici: { id: b.bici_id, numero: b.numero, modello: b.modello },
    corsa: { ritirataIl: isoOrNull(b.ritirata_at), riconsegnataIl: isoOrNull(b.riconsegnata_at) },
    pagamento:
      b.pay_id === null
        ? null
        : {
            id: b.pay_id,
            fornitore: b.provider!,
            riferimentoFornitore: b.provider_payment_id,
            importoCentesimi: b.amount!,
            valuta: b.currency!,
            stato: b.status!,
            creatoIl: iso(b.pay_created_at!),
            pagatoIl: isoOrNull(b.completed_at),
            rimborsatoIl: isoOrNull(b.refunded_at),
          },
    creataIl: iso(b.created_at),
  };
}

/** The notices sent about the bookings (reminders, overdue, offers), oldest first. */
function noticesOf(bookings: BookingRow[]): DataExport['avvisi'] {
  const notices: DataExport['avvisi'] = [];
  for (const b of bookings) {
    const sent: [DataExport['avvisi'][number]['tipo'], string | null][] = [
      ['promemoria_inizio', b.promemoria_inizio_at],
      ['promemoria_fine', b.promemoria_fine_at],
      ['ritardo', b.ritardo_avvisato_at],
      ['offerta', b.offerta_avvisata_at],
    ];
    for (const [tipo, at] of sent) if (at !== null) notices.push({ tipo, prenotazioneId: b.id, inviatoIl: iso(at) });
  }
  notices.sort((a, b) => a.inviatoIl.localeCompare(b.inviatoIl) || a.prenotazioneId - b.prenotazioneId);
  return notices;
}

type DamageRow = {
  id: number; prenotazione_id: number | null; numero: string; categoria: string; descrizione: string; created_at: string; risolta_at: string | null;
};

async function damagesOf(db: Db, userId: number): Promise<DataExport['segnalazioniDanni']> {
  const damages = await rows<DamageRow>(db, sql`
    select d.id, d.prenotazione_id, b.numero, d.categoria, d.descrizione, d.created_at, d.chiuso_at as risolta_at
      from interventi d join biciclette b on b.id = d.bici_id
     where d.segnalato_da = ${userId}
     order by d.created_at, d.id`);
  return damages.map((d) => ({
    id: d.id,
    prenotazioneId: d.prenotazione_id,
    biciNumero: d.numero,
    categoria: d.categoria,
    descrizione: d.descrizione,
    segnalataIl: iso(d.created_at),
    risoltaIl: isoOrNull(d.risolta_at),
  }));
}

type WaitRow = {
  id: number; data: string; orario_inizio: string; orario_fine: string; destinazione: string | null; stato: string; created_at: string; ended_at: string | null;
};

async function waitsOf(db: Db, userId: number): Promise<DataExport['listaAttesa']> {
  const waits = await rows<WaitRow>(db, sql`
    select id, data_prenotazione::text as data, orario_inizio, orario_fine, destinazione, stato, created_at, ended_at
      from attese where user_id = ${userId} order by created_at, id`);
  return waits.map((w) => ({
    id: w.id,
    dataPrenotazione: w.data,
    orarioInizio: w.orario_inizio,
    orarioFine: w.orario_fine,
    destinazione: w.destinazione,
    stato: w.stato,
    creataIl: iso(w.created_at),
    conclusaIl: isoOrNull(w.ended_at),
  }));
}

type SessionRow = {
  token_hash: string; kind: 'session' | 'password_change' | 'two_factor'; metodo: 'password' | 'passkey' | 'oidc'; dispositivo: string | null; created_at: string; last_seen_at: string; expires_at: string;
};

/** The open sessions and grants; `currentSessionHash` marks the one that asked. */
async function sessionsOf(db: Db, userId: number, now: Date, currentSessionHash: string | null): Promise<DataExport['sessioni']> {
  const sessionRows = await rows<SessionRow>(db, sql`
    select token_hash, kind, metodo, dispositivo, created_at, last_seen_at, expires_at
      from sessions where user_id = ${userId} and expires_at > ${now.toISOString()}::timestamptz
     order by created_at, token_hash`);
  return sessionRows.map((s) => ({
    tipo: s.kind,
    metodo: s.metodo,
    dispositivo: s.dispositivo,
    apertaIl: iso(s.created_at),
    ultimoUsoIl: iso(s.last_seen_at),
    scadeIl: iso(s.expires_at),
    questaSessione: s.token_hash === currentSessionHash,
  }));
}

async function pushOf(db: Db, userId: number): Promise<DataExport['notifichePush']> {
  const pushRows = await rows<{ endpoint: string; created_at: string; scade_at: string | null }>(db, sql`
    select endpoint, created_at, scade_at from push_subscriptions where user_id = ${userId} order by created_at, id`);
  return pushRows.map((p) => ({ endpoint: p.endpoint, creataIl: iso(p.created_at), scadeIl: isoOrNull(p.scade_at) }));
}

async function calendarOf(db: Db, userId: number): Promise<DataExport['calendario']> {
  const [prefs] = await rows<{ promemoria: boolean; calendario_token_hash: string | null; updated_at: string }>(db, sql`
    select promemoria, calendario_token_hash, updated_at from preferenze_utente where user_id = ${userId}`);
  return {
    promemoria: prefs?.promemoria ?? true,
    linkAttivo: (prefs?.calendario_token_hash ?? null) !== null,
    aggiornatoIl: prefs ? iso(prefs.updated_at) : null,
  };
}

/** The passkeys and the college account (issue 49): names and dates, never a key or a `sub`. */
async function waysInOf(db: Db, userId: number): Promise<Pick<DataExport, 'passkey' | 'accountCollegio'>> {
  const keys = await rows<{ nome: string; created_at: string; ultimo_uso_at: string | null; sincronizzata: boolean }>(db, sql`
    select nome, created_at, ultimo_uso_at, sincronizzata from passkeys where user_id = ${userId} order by created_at, id`);
  const linked = await rows<{ email: string; issuer: string; created_at: string; ultimo_accesso_at: string | null }>(db, sql`
    select email, issuer, created_at, ultimo_accesso_at from identita_esterne where user_id = ${userId} order by created_at, id`);
  return {
    passkey: keys.map((k) => ({ nome: k.nome, creataIl: iso(k.created_at), ultimoUsoIl: isoOrNull(k.ultimo_uso_at), sincronizzata: k.sincronizzata })),
    accountCollegio: linked.map((l) => ({ email: l.email, issuer: l.issuer, collegatoIl: iso(l.created_at), ultimoAccessoIl: isoOrNull(l.ultimo_accesso_at) })),
  };
}

/** The export of `userId`, as of `now`; `currentSessionHash` marks the session that asked. */
export async function buildDataExport(db: Db, userId: number, now: Date, currentSessionHash: string | null): Promise<DataExport> {
  // One statement per section, in this order.
  const account = await accountOf(db, userId);
  const bookings = await bookingRowsOf(db, userId);
  const segnalazioniDanni = await damagesOf(db, userId);
  const listaAttesa = await waitsOf(db, userId);
  const sessioni = await sessionsOf(db, userId, now, currentSessionHash);
  const notifichePush = await pushOf(db, userId);
  const calendario = await calendarOf(db, userId);
  const waysIn = await waysInOf(db, userId);
  return {
    formato: DATA_EXPORT_FORMAT,
    versione: DATA_EXPORT_VERSION,
    generatoIl: now.toISOString(),
    account,
    prenotazioni: bookings.map(bookingOf),
    segnalazioniDanni,
    avvisi: noticesOf(bookings),
    listaAttesa,
    sessioni,
    notifichePush,
    calendario,
    ...waysIn,
  };
}
