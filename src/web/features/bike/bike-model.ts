import type { BikePageDto } from '../../../shared/schemas/bike-page';
import type { BikeNowState } from '../../../shared/schemas/fleet';
import { zonedClock } from '../../../shared/time';
import type { MessageKey, Translate } from '../../../shared/i18n';
import type { BadgeTone } from '../../lib/booking-labels';
import { t as appT } from '../../lib/i18n';

/** A bike's state now as its page says it (issue 34). */
export const BIKE_NOW_BADGE = {
  libera: { label: 'bikePage.badgeFree', tone: 'success' },
  in_uso: { label: 'bikePage.badgeInUse', tone: 'info' },
  in_ritardo: { label: 'bikePage.badgeLate', tone: 'danger' },
  prenotata: { label: 'bikePage.badgeBooked', tone: 'warning' },
  manutenzione: { label: 'bikePage.badgeMaintenance', tone: 'muted' },
  fuori_servizio: { label: 'bikePage.badgeOutOfService', tone: 'muted' },
} as const satisfies Record<BikeNowState, { label: MessageKey; tone: BadgeTone }>;

type BikeNowView = Pick<BikePageDto, 'stato' | 'liberaFino' | 'inUsoFino' | 'prenotataDalle' | 'prossimaLiberaOggi'>;

/**
 * The lines under the state: until when it holds (`Libera fino alle 15:00`, `In uso fino alle
 * 14:00`, `Prenotata dalle 15:00`) and, for a bike not free now, its next free time today
 * (`Libera dalle 15:00`, or `Non più libera oggi`). A late ride has no known end: it is said so.
 */
export function bikeNowLines(bike: BikeNowView, timeZone: string, t: Translate = appT): string[] {
  const clock = (iso: string | null) => (iso ? zonedClock(new Date(iso), timeZone) : null);
  const nextFree = clock(bike.prossimaLiberaOggi);
  const freeLine = nextFree ? t('bikePage.freeFrom', { ora: nextFree }) : t('bikePage.notFreeToday');
  switch (bike.stato) {
    case 'libera': {
      const until = clock(bike.liberaFino);
      return until ? [t('bikePage.freeUntil', { ora: until })] : [t('bikePage.freeAllDay')];
    }
    case 'in_uso': {
      const until = clock(bike.inUsoFino);
      return [...(until ? [t('bikePage.inUseUntil', { ora: until })] : []), freeLine];
    }
    case 'in_ritardo':
      return [t('bikePage.notReturned')];
    case 'prenotata': {
      const from = clock(bike.prenotataDalle);
      return [...(from ? [t('bikePage.bookedFrom', { ora: from })] : []), freeLine];
    }
    case 'manutenzione':
    case 'fuori_servizio':
      return [freeLine];
  }
}

/** `Prenota questa bici` is offered unless the bike is out of use with no end in sight (the form says which times are free). */
export function canOfferBooking(bike: Pick<BikePageDto, 'stato' | 'prossimaLiberaOggi'>): boolean {
  if (bike.stato === 'fuori_servizio') return false;
  if (bike.stato === 'manutenzione') return bike.prossimaLiberaOggi !== null;
  return true;
}

/** The dashboard's address that opens the booking form with this bike chosen (when it is free in the window). */
export const bookThisBikeHref = (numero: string) => `/dashboard?bici=${encodeURIComponent(numero)}`;
