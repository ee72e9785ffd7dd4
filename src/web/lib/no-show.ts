/**
 * Said to an external before paying (decision 022): a paid booking whose bike is not picked
 * up in time is cancelled and not refunded. GET /api/config does not tell the page how many
 * minutes the server allows (NO_SHOW_MINUTES), so the sentence names no number. A module of
 * its own: the booking form and the payment pages are different chunks.
 */
export const NO_SHOW_NOT_REFUNDED =
  "Se non ritiri la bicicletta entro il tempo previsto dall'inizio, la prenotazione viene annullata e non rimborsata.";
