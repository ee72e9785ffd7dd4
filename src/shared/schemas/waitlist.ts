import { z } from '../zod-it.js';
import { availabilityRequestSchema, destinationField } from './booking.js';
import { idParam } from './ids.js';

/**
 * The waitlist (issue 21, decision 025): when no bike is free for a window, a user joins its
 * line; when a bike becomes free for it, the first in line gets an offer that holds the bike
 * for the rules' `offertaMinuti`. One source for the routes and the screens.
 */

/** How many windows one user may wait for at once. */
export const WAITLIST_MAX_PER_USER = 3;

/** POST /api/attese — the window of the booking form, and its sede (`sedeId`, absent: the home sede; issue 47); the destination is kept for the booking. */
export const waitRequestSchema = availabilityRequestSchema.and(z.object({ destinazione: destinationField }));
export type WaitRequest = z.input<typeof waitRequestSchema>;

export const waitIdParamsSchema = z.object({ id: idParam('schemas.waitNotFound') });

/** An open wait: still waiting, or holding an offer. Ended waits are not shown to the user. */
export type WaitStato = 'in_attesa' | 'offerta';

/** GET /api/attese — one of the user's open waits; offers first, then by window. */
export interface WaitDto {
  id: number;
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  destinazione: string | null;
  stato: WaitStato;
  /**
   * The place in line, from 1: one more than the open waits joined earlier for a window that
   * overlaps this one (they are offered a freed bike first).
   */
  posizione: number;
  createdAt: string;
  /** While another booking of the user is active, freed bikes pass to the next in line. */
  bloccataDaPrenotazione: boolean;
  /** The sede whose bikes are waited for (issue 47). */
  sedeId: number;
  /** The offer, when a bike is held for this user. */
  offerta: {
    biciId: number;
    biciNumero: string;
    biciModello: string;
    /** ISO instant: the bike is held until then (at the latest the window's start). */
    scadeAt: string;
  } | null;
}

/** One window of today's lines, as the admins see it on /admin. */
export interface AdminWaitWindowDto {
  dataPrenotazione: string;
  orarioInizio: string;
  orarioFine: string;
  /** The sede of the line (issue 47): one line per window and sede. */
  sedeId: number;
  inAttesa: number;
  offerteAperte: number;
}

/** GET /api/admin/attese — today's lines (TZ_APP), windows not started yet. */
export interface AdminWaitlistDto {
  data: string;
  finestre: AdminWaitWindowDto[];
  inAttesa: number;
  offerteAperte: number;
}
