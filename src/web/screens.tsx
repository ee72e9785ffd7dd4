import { lazy, Suspense, type ComponentType } from 'react';
import { FullScreenSpinner } from './components/ui/spinner';
import { useStarted } from './lib/started';
import { preloadable } from './lib/preloadable';
import { useT, withTexts } from './lib/i18n';
import type { MessageKey } from '../shared/i18n';

/**
 * The screens loaded on demand, each group a chunk of its own ("Fast by construction"):
 * the first download carries the login screen (shown in place of any guarded page) and
 * nothing else. Each loader is also callable to fetch a chunk ahead of time.
 */
export const loadAccountScreens = () => withTexts(import('./features/auth/account-screens'), 'account');
export const loadDashboard = () =>
  Promise.all([withTexts(import('./features/dashboard/dashboard-page'), 'user'), import('./lib/query-client')]).then(
    async ([page, { queryClient }]) => {
      // In the browser: on the server (entry-server.tsx) the screen renders with its data given.
      // Offline, the data kept on the device is put back before the screen shows (issue 22).
      if (typeof window !== 'undefined') await page.prefetchDashboard(queryClient);
      // The waitlist's cards come with the screen when its waits are known already (a page the
      // server rendered for a user who waits): they are part of the HTML to hydrate.
      await page.loadWaitlistIfWaiting(queryClient);
      return page.DashboardPage;
    },
  );
export const loadAdmin = () =>
  withTexts(import('./features/admin/admin-page'), 'user', 'admin', 'admin-officina').then(async (m) => {
    // The tab the address names is part of the HTML to hydrate (on the server: entry-server.tsx).
    if (typeof window !== 'undefined') await m.loadTabFor(window.location.search);
    return m.AdminPage;
  });
export const loadSedi = () => withTexts(import('./features/admin/sedi-page'), 'user', 'admin', 'admin-sedi').then((m) => m.SediPage);
export const loadStats = () => withTexts(import('./features/stats/stats-page'), 'user', 'admin', 'admin-statistiche').then((m) => m.StatsPage);
export const loadReports = () => withTexts(import('./features/reports/reports-page'), 'user', 'admin', 'admin-doc').then((m) => m.ReportsPage);
export const loadProfile = () => withTexts(import('./features/profile/profile-page'), 'user', 'subpages').then((m) => m.ProfilePage);
export const loadOfficina = () => withTexts(import('./features/officina/officina-page'), 'user', 'admin-officina').then((m) => m.OfficinaPage);
export const loadTicket = () => withTexts(import('./features/officina/ticket-page'), 'user', 'subpages', 'admin-officina').then((m) => m.TicketPage);
export const loadBikePage = () => withTexts(import('./features/bike/bike-page'), 'user', 'subpages').then((m) => m.BikePage);
const privacy = preloadable(() => withTexts(import('./features/privacy/privacy-page'), 'account'));
export const loadPrivacy = () => privacy.load().then((m) => m.PrivacyPage);
export const loadPayment = () => withTexts(import('./features/payment/payment-page'), 'user', 'subpages').then((m) => m.PaymentPage);
const loadCheckout = () => withTexts(import('./features/payment/checkout-page'), 'user', 'subpages').then((m) => m.CheckoutPage);
const loadCheckoutSuccess = () => withTexts(import('./features/payment/checkout-success-page'), 'user', 'subpages').then((m) => m.CheckoutSuccessPage);
const loadSimulatedCheckout = () =>
  withTexts(import('./features/payment/simulated-checkout-page'), 'user', 'subpages').then((m) => m.SimulatedCheckoutPage);

const loadQueryProvider = () => import('./components/query-provider').then((m) => m.QueryProvider);

/**
 * A lazily loaded screen, with a spinner saying what is loading until its chunk is there,
 * inside the app's QueryClientProvider (which comes with the first such screen), which also
 * tells, offline, that a screen needs the connection (components/query-provider.tsx, issue 22).
 */
function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>, label: MessageKey): ComponentType<P> {
  const Screen = lazy(async () => {
    const [Component, QueryProvider] = await Promise.all([load(), loadQueryProvider()]);
    return {
      default: function LoadedScreen(props: P) {
        useStarted();
        return (
          <QueryProvider>
            <Component {...props} />
          </QueryProvider>
        );
      },
    };
  });
  function LazyScreen(props: P) {
    const t = useT();
    return (
      <Suspense fallback={<FullScreenSpinner label={t(label as 'app.loading')} />}>
        <Screen {...props} />
      </Suspense>
    );
  }
  return LazyScreen;
}

/** The label of the loading state, also in the pre-rendered HTML (prerender.tsx). */
export const LOADING = 'app.loading' satisfies MessageKey;
export const RegistrationScreen = lazyScreen(() => loadAccountScreens().then((m) => m.RegistrationPage), LOADING);
export const RecoveryScreen = lazyScreen(() => loadAccountScreens().then((m) => m.RecoveryPage), LOADING);
export const ChangePasswordScreen = lazyScreen(() => loadAccountScreens().then((m) => m.ChangePasswordPage), LOADING);
export const TwoFactorLoginScreen = lazyScreen(() => loadAccountScreens().then((m) => m.TwoFactorLoginPage), LOADING);
export const CollegeCompletionScreen = lazyScreen(() => loadAccountScreens().then((m) => m.CollegeCompletionPage), LOADING);
export const DashboardScreen = lazyScreen(loadDashboard, LOADING);
export const AdminScreen = lazyScreen(loadAdmin, LOADING);
export const StatsScreen = lazyScreen(loadStats, 'app.loadingStats');
export const SediScreen = lazyScreen(loadSedi, LOADING);
export const ReportsScreen = lazyScreen(loadReports, LOADING);
export const ProfileScreen = lazyScreen(loadProfile, 'app.loadingProfile');
export const BikeScreen = lazyScreen(loadBikePage, 'app.loadingBike');
export const OfficinaScreen = lazyScreen(loadOfficina, LOADING);
export const TicketScreen = lazyScreen(loadTicket, LOADING);
/** A path the app does not know: rare, so not in the first download (issue 34 made room for its screens). */
export const NotFoundScreen = lazyScreen(() => withTexts(import('./features/not-found/not-found-page'), 'account').then((m) => m.NotFoundPage), LOADING);
export const PaymentScreen = lazyScreen(loadPayment, 'app.preparingPayment');
export const CheckoutScreen = lazyScreen(loadCheckout, LOADING);
export const CheckoutSuccessScreen = lazyScreen(loadCheckoutSuccess, LOADING);
export const SimulatedCheckoutScreen = lazyScreen(loadSimulatedCheckout, 'app.loadingPayment');

/**
 * The privacy notice (issue 23): public, its text a chunk of its own; no query library. Once its
 * chunk is in, it renders as it is (lib/preloadable.tsx): the pre-rendered page hydrates it
 * whole, never showing the loading screen (boot/main.tsx).
 */
export const PrivacyScreen = privacy.component((m) => m.PrivacyPage);

/**
 * The rack's board (issue 34): public, a chunk of its own, no query library (it reads a
 * stream of server-sent events).
 */
export const loadRack = () => withTexts(import('./features/rack/rack-page'), 'rack');
const LazyRack = lazy(() => loadRack().then((m) => ({ default: m.RackPage })));
export function RackScreen({ token }: { token: string }) {
  const t = useT();
  return (
    <Suspense fallback={<FullScreenSpinner label={t(LOADING)} />}>
      <LazyRack token={token} />
    </Suspense>
  );
}

const ACCOUNT_PATHS = ['/registrazione', '/recupera-password', '/cambio-password', '/verifica-accesso', '/accesso/'];

/**
 * Called at start-up with the address being opened: a page that needs its own chunk starts
 * fetching it while the session is read, instead of after. Settles once it has arrived.
 */
export function preloadScreenFor(path: string): Promise<unknown> {
  if (ACCOUNT_PATHS.some((prefix) => path.startsWith(prefix))) return loadAccountScreens();
  if (path.startsWith('/dashboard')) return loadDashboard();
  if (path.startsWith('/payment/')) return loadPayment();
  if (path.startsWith('/profilo')) return loadProfile();
  if (path.startsWith('/bici/')) return loadBikePage();
  if (path === '/officina' || path === '/officina/') return loadOfficina();
  if (path.startsWith('/officina/')) return loadTicket();
  if (path.startsWith('/privacy')) return loadPrivacy();
  if (path.startsWith('/rastrelliera/')) return loadRack();
  if (path.startsWith('/doc')) return loadReports();
  if (path.startsWith('/admin/statistiche')) return loadStats();
  if (path.startsWith('/admin/sedi')) return loadSedi();
  if (path.startsWith('/admin')) return loadAdmin();
  return Promise.resolve();
}
