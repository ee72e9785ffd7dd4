import { z } from '../zod-it.js';

/**
 * The fleet's state now (issue 34, decision 044): one entry per bike, as the rack's board and
 * the bike's page show it. Only the bike's number, its state and instants: no name, email,
 * lock code, user or booking id (the rack's board is read without a login).
 */
export const BIKE_NOW_STATES = ['libera', 'in_uso', 'in_ritardo', 'prenotata', 'manutenzione', 'fuori_servizio'] as const;
export type BikeNowState = (typeof BIKE_NOW_STATES)[number];

export const bikeNowSchema = z
  .object({
    biciId: z.number().int(),
    numero: z.string(),
    stato: z.enum(BIKE_NOW_STATES),
    /** `libera`: free now until the next booking's start today (ISO); null if no booking follows today. */
    liberaFino: z.string().nullable(),
    /** `in_uso` / `in_ritardo`: the ride's end (ISO). */
    inUsoFino: z.string().nullable(),
    /** `prenotata` by a booking whose pick-up window is open: its start (ISO). */
    prenotataDalle: z.string().nullable(),
    /** Today's bookings not yet picked up and not over, by start: their times only. */
    prossimePrenotazioni: z.array(z.object({ inizio: z.string(), fine: z.string() }).strict()),
    /** When the bike is next free today (now if free); null if not today (or not known: a late ride, an admin's state). */
    prossimaLiberaOggi: z.string().nullable(),
  })
  .strict();

export type BikeNow = z.infer<typeof bikeNowSchema>;

/** GET /api/rastrelliera/:token and each event of its stream. */
export const rackBoardSchema = z
  .object({
    aggiornatoAlle: z.string(),
    bici: z.array(bikeNowSchema),
    /** The board's sede (issue 47), named only when the install has several; null with one. */
    sede: z.object({ nome: z.string() }).strict().nullable(),
  })
  .strict();
export type RackBoard = z.infer<typeof rackBoardSchema>;
