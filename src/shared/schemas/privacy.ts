import { PASSWORD_MAX } from '../constants.js';
import { z } from '../zod-it.js';
import { msg } from './message.js';

/*
 * The person's own data (issue 23, decision 029): `Scarica i miei dati` and `Elimina il mio
 * account` on /profilo. The export's format is this file's `dataExportSchema` (documented in
 * docs/data-export.md): the server builds it, the API tests parse it back with it.
 */

/** DELETE /api/profilo — the password asked again. */
export const accountDeleteSchema = z.object({
  password: z
    .string(msg('schemas.deletePasswordRequired'))
    .min(1, msg('schemas.deletePasswordRequired'))
    .max(PASSWORD_MAX, msg('schemas.wrongPassword')),
});

/** A booking the deletion cancels, as the confirmation screen names it. */
export interface DeletionBookingDto {
  id: number;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  biciNumero: string;
  /** Paid and not started: the fee goes back, as a cancel would. */
  rimborso: boolean;
}

/** GET /api/profilo/eliminazione — exactly what `Elimina il mio account` would do now. */
export interface DeletionPreviewDto {
  /** A bike picked up and not returned: the deletion is refused until it is. */
  corsaInCorso: { id: number; biciNumero: string } | null;
  /** Sole active admin: the deletion is refused. */
  ultimoAmministratore: boolean;
  /** Active bookings cancelled (each refunded if paid and not started). */
  annullate: DeletionBookingDto[];
  /** Past or cancelled bookings kept without a name, for the statistics. */
  anonimizzate: number;
  /** Payments kept for the accounts, detached from the person. */
  pagamenti: number;
  /** Open places in a waitlist that end. */
  attese: number;
  /** Sessions that end (every device, this one included). */
  sessioni: number;
  notifichePush: number;
  calendario: boolean;
  email: string;
}

/** DELETE /api/profilo — what was done. */
export interface AccountDeletedDto {
  message: string;
  annullate: number;
  rimborsate: number;
  anonimizzate: number;
}

// ---------------------------------------------------------------------------------------
// The export (`Scarica i miei dati`), version 1

export const DATA_EXPORT_FORMAT = 'bicielis-dati-personali';
export const DATA_EXPORT_VERSION = 1;

const instant = z.iso.datetime({ offset: true });
const nullableInstant = instant.nullable();
const day = z.iso.date();
const hhmm = z.string().regex(/^\d{2}:\d{2}$/);

const exportPayment = z.strictObject({
  id: z.number().int(),
  fornitore: z.enum(['stripe', 'simulated']),
  riferimentoFornitore: z.string().nullable(),
  importoCentesimi: z.number().int(),
  valuta: z.string(),
  stato: z.enum(['pending', 'completed', 'failed', 'refunded']),
  creatoIl: instant,
  pagatoIl: nullableInstant,
  rimborsatoIl: nullableInstant,
});

const exportNotice = z.strictObject({
  tipo: z.enum(['promemoria_inizio', 'promemoria_fine', 'ritardo', 'offerta']),
  prenotazioneId: z.number().int(),
  inviatoIl: instant,
});

const exportDamage = z.strictObject({
  id: z.number().int(),
  prenotazioneId: z.number().int().nullable(),
  biciNumero: z.string(),
  categoria: z.string(),
  descrizione: z.string(),
  segnalataIl: instant,
  risoltaIl: nullableInstant,
});

export const dataExportSchema = z.strictObject({
  formato: z.literal(DATA_EXPORT_FORMAT),
  versione: z.literal(DATA_EXPORT_VERSION),
  generatoIl: instant,
  account: z.strictObject({
    id: z.number().int(),
    nome: z.string(),
    cognome: z.string(),
    email: z.string(),
    ruolo: z.enum(['admin', 'user']),
    isResidente: z.boolean(),
    siglaResidente: z.string().nullable(),
    codiceResidente: z
      .strictObject({ sigla: z.string(), corsoDiStudi: z.string().nullable(), annoCorso: z.number().int().nullable() })
      .nullable(),
    attiva: z.boolean(),
    cambioPasswordRichiesto: z.boolean(),
    sospensioneRevocataIl: nullableInstant,
    /** An admin's second factor (decision 030): since when, and the recovery codes still unused; never the key. */
    verificaInDuePassaggi: z.strictObject({ attivaDal: instant, codiciDiRecuperoRimasti: z.number().int() }).nullable(),
    creatoIl: instant,
    aggiornatoIl: instant,
  }),
  prenotazioni: z.array(
    z.strictObject({
      id: z.number().int(),
      dataPrenotazione: day,
      orarioInizio: hhmm,
      orarioFine: hhmm,
      inizio: instant,
      fine: instant,
      destinazione: z.string().nullable(),
      stato: z.enum(['attiva', 'completata', 'cancellata', 'offerta']),
      motivoCancellazione: z.string().nullable(),
      bici: z.strictObject({ id: z.number().int(), numero: z.string(), modello: z.string() }),
      corsa: z.strictObject({ ritirataIl: nullableInstant, riconsegnataIl: nullableInstant }),
      pagamento: exportPayment.nullable(),
      creataIl: instant,
    }),
  ),
  segnalazioniDanni: z.array(exportDamage),
  avvisi: z.array(exportNotice),
  listaAttesa: z.array(
    z.strictObject({
      id: z.number().int(),
      dataPrenotazione: day,
      orarioInizio: hhmm,
      orarioFine: hhmm,
      destinazione: z.string().nullable(),
      stato: z.string(),
      creataIl: instant,
      conclusaIl: nullableInstant,
    }),
  ),
  sessioni: z.array(
    z.strictObject({
      tipo: z.enum(['session', 'password_change', 'two_factor']),
      /** How the person signed in (issue 49). */
      metodo: z.enum(['password', 'passkey', 'oidc']),
      dispositivo: z.string().nullable(),
      apertaIl: instant,
      ultimoUsoIl: instant,
      scadeIl: instant,
      questaSessione: z.boolean(),
    }),
  ),
  notifichePush: z.array(z.strictObject({ endpoint: z.string(), creataIl: instant, scadeIl: nullableInstant })),
  calendario: z.strictObject({ promemoria: z.boolean(), linkAttivo: z.boolean(), aggiornatoIl: nullableInstant }),
  /** The person's passkeys (issue 49): the name of the device, when made and last used; never the key. */
  passkey: z.array(z.strictObject({ nome: z.string(), creataIl: instant, ultimoUsoIl: nullableInstant, sincronizzata: z.boolean() })),
  /** The college account linked (issue 49): its email at the provider, the provider, since when. */
  accountCollegio: z.array(z.strictObject({ email: z.string(), issuer: z.string(), collegatoIl: instant, ultimoAccessoIl: nullableInstant })),
});
export type DataExport = z.infer<typeof dataExportSchema>;
