import type { BookingDto } from '../../../shared/schemas/booking';
import { apiRequest } from '../../lib/api';
import { newRideAction, rideActionRequest, type QueuedAction, type RideActionInput } from '../../offline/actions';
import { isUnreachableError, noteUnreachable } from '../../offline/connectivity';
import type { KeptRide } from '../../offline/lock-codes';

/**
 * A ride step tapped on the dashboard (issue 22): sent at once with its id and the time of the
 * tap; when it cannot reach the server (no network, no answer in time, the server down) it is
 * queued on the device and sent later (offline/queue.ts). A refusal (4xx) is thrown, as before.
 */

/** A ride step's answer: the booking, and at `Ritirata` or the return on a combination lock the code to close it with (issue 34). */
export type RideAnswer = BookingDto & { nuovoCodice?: string | null };

export type RideOutcome = { kind: 'sent'; booking: RideAnswer } | { kind: 'queued'; action: QueuedAction };

async function keepNewCodeQuietly(bookingId: number, code: string): Promise<void> {
  const codes = await import('../../offline/lock-codes');
  await codes.keepNewCode(bookingId, code).catch(() => undefined);
}

/** A request still without an answer after this long is queued (sent again later: the server applies an id once). */
const ANSWER_WITHIN_MS = 20_000;

class NoAnswer extends TypeError {}

function withinTime<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer('Nessuna risposta dal server')), ANSWER_WITHIN_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * `behindQueued`: an earlier step of the same booking is still waiting on the device (a return
 * tapped after a pick-up that has not reached the server): this one is queued behind it and the
 * queue is sent now, so that the server gets them in the order they were tapped.
 */
export async function sendRideAction(input: RideActionInput, behindQueued = false): Promise<RideOutcome> {
  const action = newRideAction(input);
  // With no network at all the request is not even tried: it could only fail.
  if (navigator.onLine && !behindQueued) {
    try {
      const { url, body } = rideActionRequest(action);
      const booking = await withinTime(apiRequest<RideAnswer>('POST', url, body));
      // The code to close the lock with at the return, drawn by the server at `Ritirata` (issue 34).
      if (action.tipo === 'ritiro' && booking.nuovoCodice) await keepNewCodeQuietly(action.prenotazioneId, booking.nuovoCodice);
      return { kind: 'sent', booking };
    } catch (error) {
      if (!isUnreachableError(error)) throw error;
      noteUnreachable();
    }
  }
  if (action.tipo === 'ritiro' && input.lucchetto === 'combinazione') {
    // A pick-up made offline draws the new code here, never the lock's code as last shown.
    const codes = await import('../../offline/lock-codes');
    const kept = await codes.readKeptRide(action.prenotazioneId).catch(() => ({}) as KeptRide);
    action.nuovoCodice = codes.drawNewCode(kept.codice?.codice);
    await codes.keepNewCode(action.prenotazioneId, action.nuovoCodice).catch(() => undefined);
  }
  const queue = await import('../../offline/queue');
  await queue.enqueue(action);
  void queue.requestBackgroundSync().catch(() => undefined);
  if (behindQueued && navigator.onLine) void queue.flushQueue(input.userId).catch(() => undefined);
  return { kind: 'queued', action };
}
