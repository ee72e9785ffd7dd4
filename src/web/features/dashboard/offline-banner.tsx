import { RotateCwIcon, WifiOffIcon } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useLingua, useT } from '../../lib/i18n';
import { useBrowserOffline, useOffline } from '../../offline/connectivity';
import { lastSyncText } from '../../offline/offline-model';

/**
 * Under the dashboard's header while the server cannot be reached (issue 22): that the data
 * shown is the last the device read, and when that was. A live region that is always there,
 * so that a screen reader hears it appear. `Riprova` where the browser thinks it is online
 * (a network that leads nowhere): offline altogether there is nothing to try.
 */
export function OfflineBanner({ lastSync, timeZone, onRetry }: { lastSync: number; timeZone: string; onRetry: () => void }) {
  const t = useT();
  const lingua = useLingua();
  const offline = useOffline();
  const browserOffline = useBrowserOffline();
  const when = offline ? lastSyncText(lastSync, new Date(), timeZone, t, lingua) : null;
  return (
    <div className={offline ? 'border-b border-amber-300 bg-amber-50 text-amber-950' : undefined}>
      <div className="mx-auto flex max-w-5xl items-start gap-3 px-4 sm:px-6">
        <div role="status" className="min-w-0 flex-1">
          {offline ? (
            <div className="flex items-start gap-3 py-3">
              <WifiOffIcon className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
              <div className="grid gap-0.5">
                <p className="font-semibold">{t('offlineBanner.title')}</p>
                <p className="text-sm">{when ?? t('offlineBanner.noData')}</p>
              </div>
            </div>
          ) : null}
        </div>
        {offline && !browserOffline ? (
          <Button variant="outline" size="sm" className="my-3" onClick={onRetry}>
            <RotateCwIcon aria-hidden="true" />
            {t('offlineBanner.retry')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
