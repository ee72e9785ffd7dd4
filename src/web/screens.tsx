import { lazy, Suspense, type ComponentType } from 'react';
import { FullScreenSpinner } from './components/ui/spinner';
import { useStarted } from './lib/started';
import { preloadable } from './lib/preloadable';

/**
 * The screens loaded on demand, each group a chunk of its own ("Fast by construction"):
 * the first download carries the login screen (shown in place of any guarded page) and
 * nothing else. Each loader is also callable to fetch a chunk ahead of time.
 */
export const loadAccountScreens = () => import('./features/auth/account-screens');
export const loadDashboard = () =>
  Promise.all([import('./features/dashboard/dashboard-page'), import('./features/dashboard/queries'), import('./lib/query-client')]).then(
    async ([page, queries, { queryClient }]) => {
      // In the browser: on the server (entry-server.tsx) the screen renders with its data given.
      // Offline, the data kept on the device is put back before the screen shows (issue 22).
      if (typeof window !== 'undefined') await queries.prefetchDashboard(queryClient);
      // The waitlist's cards come with the screen when its waits are known already (a page the
      // server rendered for a user who waits): they are part of the HTML to hydrate.
      await page.loadWaitlistIfWaiting(queryClient);
      return page.DashboardPage;
    },
  );
export const loadAdmin = () =>
  import('./features/admin/admin-page').then(async (m) => {
    // The tab the address names is part of the HTML to hydrate (on the server: entry-server.tsx).
    if (typeof window !== 'undefined') await m.loadTabFor(window.location.search);
    return m.AdminPage;
  });
export const loadStats = () => import('./features/stats/stats-page').then((m) => m.StatsPage);
export const loadReports = () => import('./features/reports/reports-page').then((m) => m.ReportsPage);
export const loadProfile = () => import('./features/profile/profile-page').then((m) => m.ProfilePage);
export const loadBikePage = () => import('./features/bike/bike-page').then((m) => m.BikePage);
const privacy = preloadable(() => import('./features/privacy/privacy-page'));
export const loadPrivacy = () => privacy.load().then((m) => m.PrivacyPage);
export const loadPayment = () => import('./features/payment/payment-page').then((m) => m.PaymentPage);
const loadCheckout = () => import('./features/payment/checkout-page').then((m) => m.CheckoutPage);
const loadCheckoutSuccess = () => import('./features/payment/checkout-success-page').then((m) => m.CheckoutSuccessPage);
const loadSimulatedCheckout = () =>
  import('./features/payment/simulated-checkout-page').then((m) => m.SimulatedCheckoutPage);

const loadQueryProvider = () => import('./lib/query-provider').then((m) => m.QueryProvider);

/**
 * A lazily loaded screen, with a spinner saying what is loading until its chunk is there,
 * inside the app's QueryClientProvider (which comes with the first such screen), which also
 * tells, offline, that a screen needs the connection (lib/query-provider.tsx, issue 22).
 */
function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>, label: string): ComponentType<P> {
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
    return (
      <Suspense fallback={<FullScreenSpinner label={label} />}>
        <Screen {...props} />
      </Suspense>
    );
  }
  return LazyScreen;
}

/** The label of the loading state, also in the pre-rendered HTML (prerender.tsx). */
export const LOADING = 'Caricamento BiciElis...';
export const RegistrationScreen = lazyScreen(() => loadAccountScreens().then((m) => m.RegistrationPage), LOADING);
export const RecoveryScreen = lazyScreen(() => loadAccountScreens().then((m) => m.RecoveryPage), LOADING);
export const ChangePasswordScreen = lazyScreen(() => loadAccountScreens().then((m) => m.ChangePasswordPage), LOADING);
export const TwoFactorLoginScreen = lazyScreen(() => loadAccountScreens().then((m) => m.TwoFactorLoginPage), LOADING);
export const DashboardScreen = lazyScreen(loadDashboard, LOADING);
export const AdminScreen = lazyScreen(loadAdmin, LOADING);
export const StatsScreen = lazyScreen(loadStats, 'Caricamento statistiche...');
export const ReportsScreen = lazyScreen(loadReports, LOADING);
export const ProfileScreen = lazyScreen(loadProfile, 'Caricamento del profilo...');
export const BikeScreen = lazyScreen(loadBikePage, 'Caricamento della bicicletta...');
/** A path the app does not know: rare, so not in the first download (issue 34 made room for its screens). */
export const NotFoundScreen = lazyScreen(() => import('./features/not-found/not-found-page').then((m) => m.NotFoundPage), LOADING);
export const PaymentScreen = lazyScreen(loadPayment, 'Preparazione pagamento...');
export const CheckoutScreen = lazyScreen(loadCheckout, LOADING);
export const CheckoutSuccessScreen = lazyScreen(loadCheckoutSuccess, LOADING);
export const SimulatedCheckoutScreen = lazyScreen(loadSimulatedCheckout, 'Caricamento del pagamento...');

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
export const loadRack = () => import('./features/rack/rack-page');
const LazyRack = lazy(() => loadRack().then((m) => ({ default: m.RackPage })));
export function RackScreen({ token }: { token: string }) {
  return (
    <Suspense fallback={<FullScreenSpinner label={LOADING} />}>
      <LazyRack token={token} />
    </Suspense>
  );
}

const ACCOUNT_PATHS = ['/registrazione', '/recupera-password', '/cambio-password', '/verifica-accesso'];

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
  if (path.startsWith('/privacy')) return loadPrivacy();
  if (path.startsWith('/rastrelliera/')) return loadRack();
  if (path.startsWith('/doc')) return loadReports();
  if (path.startsWith('/admin/statistiche')) return loadStats();
  if (path.startsWith('/admin')) return loadAdmin();
  return Promise.resolve();
}
