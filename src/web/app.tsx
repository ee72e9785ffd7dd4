import { I18nProvider } from '@lingui/react';
import { FollowAccountLingua, LanguageSwitch } from './components/language-switch';
import { LoadFailureBoundary } from './components/load-failure-boundary';
import { LazyToaster } from './components/ui/lazy-toaster';
import { ScreenRegistryContext, type ScreenRegistry } from './lib/screen-registry';
import { i18n, useT } from './lib/i18n';
import { AppRoutes } from './routes';
import { preloadScreenFor } from './screens';

/**
 * Every page's footer (issue 23): the privacy notice, as a plain link: /privacy is its own
 * pre-rendered page, served with the controller's details filled in (pages/privacy-page.ts).
 */
function SiteFooter() {
  const t = useT();
  return (
    <footer className="px-4 pb-6 text-center text-sm text-muted-foreground">
      <a href="/privacy" className="inline-flex min-h-11 items-center underline underline-offset-4 hover:text-foreground">
        {t('app.privacyLink')}
      </a>
    </footer>
  );
}

/** The screens' registry, passed down to the screens that preload the next one (lib/screen-registry.ts). */
const screens: ScreenRegistry = { preload: preloadScreenFor };

/** The app, in the language the page was made in (lib/i18n.ts): its `common` texts are loaded before it renders. */
export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <ScreenRegistryContext value={screens}>
        <LanguageSwitch />
        <FollowAccountLingua />
        <LoadFailureBoundary scope="screen">
          <AppRoutes />
        </LoadFailureBoundary>
        <SiteFooter />
        <LazyToaster />
      </ScreenRegistryContext>
    </I18nProvider>
  );
}
