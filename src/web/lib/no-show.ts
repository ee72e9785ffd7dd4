import { usePublicConfig } from './public-config';

/**
 * Said to an external before paying (decision 022): a paid booking whose bike is not picked
 * up in time is cancelled and not refunded. The minutes are the server's (NO_SHOW_MINUTES,
 * in GET /api/config); until the configuration is read the sentence names no number. A
 * module of its own: the booking form and the payment pages are different chunks.
 */
export function noShowNotRefunded(minutes: number | null | undefined): string {
  const within =
    minutes === null ? 'entro la fine della prenotazione' : minutes ? `entro ${minutes} minuti dall'inizio` : "entro il tempo previsto dall'inizio";
  return `Se non ritiri la bicicletta ${within}, la prenotazione viene annullata e non rimborsata.`;
}

export function useNoShowNotice(): string {
  return noShowNotRefunded(usePublicConfig().data?.noShowMinutes);
}
