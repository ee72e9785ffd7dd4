import type { Translate } from '../../shared/i18n';
import type { DamageCategory, PickUpRequest, ReturnRequest } from '../../shared/schemas/booking';
import type { LockKind } from '../../shared/schemas/locks';

/**
 * A step of the ride (`Ritirata`, `Riconsegnata`) as the device records it at the tap (issue
 * 22): with an id of its own and the device's time, so that it can be sent now or later, once
 * or twice, and be applied once at the time it happened. Plain data, used by the page and by the
 * service worker.
 */
export type RideActionKind = 'ritiro' | 'riconsegna';

export interface QueuedAction {
  /** Made on the device (`crypto.randomUUID()`): the server applies an id once. */
  idAzione: string;
  tipo: RideActionKind;
  prenotazioneId: number;
  /** Whose action it is: only that user's session sends it. */
  userId: number;
  /** The tap, as an ISO instant of the device's clock. */
  oraDispositivo: string;
  /** The order of the taps on this device. */
  sequenza: number;
  /** The bike, to name it in what the user reads (the booking may be gone by then). */
  biciNumero: string;
  danno?: { categoria: DamageCategory; descrizione: string } | undefined;
  /**
   * A pick-up made offline on a combination lock: the new code drawn on the device (issue 34),
   * which the rider sets at the return; the server takes it, or draws its own and says so.
   */
  nuovoCodice?: string | undefined;
  /** Waiting to reach the server, or refused by it (kept until the user has read why). */
  stato: 'in_attesa' | 'rifiutata';
  /** The server's words for a refusal. */
  messaggio?: string | undefined;
}

export interface RideActionInput {
  tipo: RideActionKind;
  prenotazioneId: number;
  userId: number;
  biciNumero: string;
  danno?: QueuedAction['danno'];
  /** The booking's lock kind: a combination lock's pick-up sent later carries a new code drawn here. */
  lucchetto?: LockKind | undefined;
}

/** The query key under which the page reads the queue (networkMode `always`: it is not the network). */
export const PENDING_ACTIONS_QUERY_KEY = ['bicielis:azioni'] as const;

/** A version 4 UUID: `crypto.randomUUID()`, or the same made from random bytes where it is missing (an http page). */
export function newActionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let lastSequence = 0;

/** The action of a tap made `now`. */
export function newRideAction(input: RideActionInput, now: Date = new Date()): QueuedAction {
  // Strictly increasing, even for two taps in one millisecond or a clock set back.
  lastSequence = Math.max(lastSequence + 1, now.getTime());
  return {
    idAzione: newActionId(),
    tipo: input.tipo,
    prenotazioneId: input.prenotazioneId,
    userId: input.userId,
    oraDispositivo: now.toISOString(),
    sequenza: lastSequence,
    biciNumero: input.biciNumero,
    danno: input.danno,
    stato: 'in_attesa',
  };
}

/** The request that sends an action: `POST /api/prenotazioni/:id/ritiro|riconsegna`, always with its id and time. */
export function rideActionRequest(action: QueuedAction): { url: string; body: PickUpRequest | ReturnRequest } {
  const url = `/api/prenotazioni/${action.prenotazioneId}/${action.tipo}`;
  const common = { idAzione: action.idAzione, oraDispositivo: action.oraDispositivo };
  if (action.tipo === 'ritiro') return { url, body: action.nuovoCodice ? { ...common, nuovoCodice: action.nuovoCodice } : common };
  return { url, body: action.danno ? { ...common, danno: action.danno } : common };
}

/**
 * What an HTTP answer to an action means for the queue: applied (2xx, also the replay of an
 * id already applied), refused for good (a 4xx: the booking changed meanwhile, e.g. released as
 * a no-show; the user must read why), or not now (no session any more, the server busy or
 * failing: sent again later).
 */
export function answerKind(status: number): 'applied' | 'refused' | 'later' {
  if (status >= 200 && status < 300) return 'applied';
  if (status >= 400 && status < 500 && ![401, 408, 425, 429].includes(status)) return 'refused';
  return 'later';
}

/** `Ritiro non registrato` / `Riconsegna non registrata`: how a refusal begins (then the server's words), in the language of `t`. */
export function refusalTitle(action: Pick<QueuedAction, 'tipo'>, t: Translate): string {
  return action.tipo === 'ritiro' ? t('offlineActions.pickUpRefused') : t('offlineActions.returnRefused');
}
