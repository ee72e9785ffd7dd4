import type { Translate } from '../../shared/i18n';
import { useT } from './i18n';
import { usePublicConfig } from './public-config';

/**
 * Said to an external before paying (decision 022): a paid booking whose bike is not picked
 * up in time is cancelled and not refunded. The minutes are the server's (NO_SHOW_MINUTES,
 * in GET /api/config); until the configuration is read the sentence names no number. A
 * module of its own: the booking form and the payment pages are different chunks.
 */
export function noShowNotRefunded(minutes: number | null | undefined, t: Translate): string {
  if (minutes === null) return t('noShow.beforeEnd');
  return minutes ? t('noShow.withinMinutes', { minutes }) : t('noShow.inTime');
}

export function useNoShowNotice(): string {
  const t = useT();
  return noShowNotRefunded(usePublicConfig().data?.noShowMinutes, t);
}
