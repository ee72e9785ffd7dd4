import { useLocation } from 'wouter';
import { useEffect, useState } from 'react';
import { LINGUE, type Lingua } from '../../shared/i18n';
import { currentLingua, switchLingua, useLingua, useT } from '../lib/i18n';
import { useCurrentUser } from '../lib/session';
import { firstScreen, RACK_PATH } from '../lib/guards';

const NAMES: Record<Lingua, string> = { it: 'Italiano', en: 'English' };

/**
 * `IT | EN` (issue 36): on every page a visitor sees (login, registration, password recovery,
 * the privacy notice, 404), top right. The choice is kept in the `lingua` cookie, which wins
 * over the browser's languages; the page follows at once, without a reload. A logged-in user
 * chooses in the profile (`Lingua`), stored on the account.
 */
export function LanguageSwitch() {
  const [location] = useLocation();
  const { data: user, isPending } = useCurrentUser();
  const lingua = useLingua();
  const t = useT();
  const [busy, setBusy] = useState(false);
  // The pre-rendered login and privacy pages carry it before the session is known; other pages once it is known to be none.
  const anonymous = user === null || (isPending && firstScreen(location) !== 'loading');
  // The rack's board is a screen on the wall, not a visitor's page: its language is the college's.
  if (!anonymous || RACK_PATH.test(location)) return null;
  const choose = (next: Lingua) => {
    if (next === lingua || busy) return;
    setBusy(true);
    void switchLingua(next).finally(() => setBusy(false));
  };
  return (
    <nav aria-label={t('app.languageSwitch')} className="absolute right-2 top-2 z-10 flex items-center text-sm">
      {LINGUE.map((code, i) => (
        <span key={code} className="flex items-center">
          {i > 0 && (
            <span aria-hidden="true" className="px-0.5 text-muted-foreground">
              |
            </span>
          )}
          <button
            type="button"
            lang={code}
            aria-pressed={code === lingua}
            onClick={() => choose(code)}
            className={`inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-2 font-medium underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 ${code === lingua ? 'text-foreground underline decoration-2' : 'text-muted-foreground'}`}
          >
            <span aria-hidden="true">{code.toUpperCase()}</span>
            <span className="sr-only">{NAMES[code]}</span>
          </button>
        </span>
      ))}
    </nav>
  );
}

/**
 * A logged-in user reads the app in the account's language, on every device: a page opened in
 * another (a device's copy, a cookie from before) follows it as soon as the session is known.
 */
export function FollowAccountLingua() {
  const { data: user } = useCurrentUser();
  const lingua = user?.lingua;
  useEffect(() => {
    if (lingua && lingua !== currentLingua()) void switchLingua(lingua, { remember: false });
  }, [lingua]);
  return null;
}
