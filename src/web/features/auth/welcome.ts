import type { SessionUser } from '../../../shared/api-types';
import { LOGIN_REDIRECT_DELAY_MS } from '../../../shared/constants';
import { toast } from '../../components/ui/use-toast';
import { t } from '../../lib/i18n';
import { homePathFor, returnPathAfterLogin } from '../../lib/guards';
import type { ScreenRegistry } from '../../lib/screen-registry';
import { refreshSession, setSessionUser } from '../../lib/session';

/**
 * A login that succeeded (the password, or its code step: decision 030): the welcome toast,
 * then the person's home screen, or the page the login was shown in place of when it is one to
 * go back to (`from`: a bike's page, issue 34), unless an admin must first enrol a second factor.
 * Its chunk downloads during the spec's 100 ms pause.
 */
export function welcome(user: SessionUser, navigate: (path: string) => void, screens: ScreenRegistry, from?: string | null): void {
  toast({ title: t('loginPage.welcomeTitle'), description: t('loginPage.welcomeDescription', { nome: user.nome }) });
  const back = user.dueFattoriDaAttivare ? null : returnPathAfterLogin(from);
  const to = back ?? homePathFor(user);
  void screens.preload(to);
  setTimeout(() => {
    // Address first, then the session: the guard never sees the old address with the
    // new user (which would send an admin through /dashboard on the way to /admin).
    navigate(to);
    setSessionUser(user);
    void refreshSession();
  }, LOGIN_REDIRECT_DELAY_MS);
}
