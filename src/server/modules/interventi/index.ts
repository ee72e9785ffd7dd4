/*
 * The interventi module's public face (issue 48, decision 054): repair tickets. Others open one in
 * their own transaction (the return's damage report, `La bici ha un problema`) and tell the
 * sede's workshop after the commit; the old `Danni da controllare` reads and resolves them.
 */
import { bookingReported, openTicket, resolveAsRepaired } from './tickets.js';
import { tellRepaired, tellTicketOpened } from './notices.js';
import { forgetReportersBefore, forgetReporterOf } from './erasure.js';

export type { NewTicket, PatchOutcome } from './tickets.js';
export type { TicketNoticeDeps } from './notices.js';
export { encodePhoto, type EncodedPhoto } from './photos.js';
export { listTickets, ticketSummary, visibleTicket } from './service.js';

/** Erasure and retention (privacy): the tickets a person reported, without the person. */
export const ticketsErasure = { forgetReporterOf, forgetReportersBefore };

/** A ticket opened in the caller's transaction, its workshop told after the commit. */
export const tickets = { open: openTicket, bookingReported, resolveAsRepaired, tellOpened: tellTicketOpened, tellRepaired };
