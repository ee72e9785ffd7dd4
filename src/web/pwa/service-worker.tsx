import { I18nProvider } from '@lingui/react';
import { RefreshCwIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { Button, ButtonIcon } from '../components/ui/button';
import { i18n, useT } from '../lib/i18n';

/**
 * The service worker (src/web/sw.ts) is registered from here, after the page has loaded, and a
 * new version is announced (issue 22): `Nuova versione disponibile`, `Aggiorna` activates the
 * waiting worker and reloads the page once it controls it. Without that press the old version
 * goes on whole, never half-applied. `Più tardi` hides the announcement until the next load.
 * A page left open (the installed app) asks for a new version every hour.
 */

const UPDATE_CHECK_MS = 60 * 60 * 1000;

let reloading = false;
/** Once, whichever says it first: the plugin's `controlling`, or the browser's `controllerchange`. */
function reloadOnce() {
  if (reloading) return;
  reloading = true;
  window.location.reload();
}

function UpdatePrompt() {
  const t = useT();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    onNeedReload: reloadOnce,
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (document.visibilityState === 'visible' && navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
  });
  const [updating, setUpdating] = useState(false);
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-3">
      <div
        className={
          needRefresh
            ? 'pointer-events-auto flex w-full max-w-md items-center gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-lg'
            : 'sr-only'
        }
      >
        {/* Always there, so that a screen reader hears the announcement appear. */}
        <p role="status" className="min-w-0 flex-1 font-medium">
          {needRefresh ? t('pwa.newVersion') : ''}
        </p>
        {needRefresh ? (
          <>
            <Button
              size="sm"
              disabled={updating}
              onClick={() => {
                setUpdating(true);
                // The page reloads once the new worker controls it (on a page the first install
                // took over, the plugin's own reload does not come).
                navigator.serviceWorker.addEventListener('controllerchange', reloadOnce, { once: true });
                void updateServiceWorker(true);
              }}
            >
              <ButtonIcon pending={updating} icon={<RefreshCwIcon aria-hidden="true" />} />
              {t('pwa.update')}
            </Button>
            <Button variant="ghost" size="icon" aria-label={t('pwa.later')} disabled={updating} onClick={() => setNeedRefresh(false)}>
              <XIcon aria-hidden="true" />
            </Button>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** Registers the worker and mounts the announcement (its own small React root, outside the app's). */
export function startServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const host = document.createElement('div');
  host.id = 'bicielis-aggiornamento';
  document.body.append(host);
  // Its own root: the app's texts (lib/i18n.ts, `common` is loaded before the app renders) given again.
  createRoot(host).render(
    <I18nProvider i18n={i18n}>
      <UpdatePrompt />
    </I18nProvider>,
  );
}
