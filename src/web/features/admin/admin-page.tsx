import {
  AlarmClockIcon,
  BarChart3Icon,
  BikeIcon,
  CheckCircle2Icon,
  FileTextIcon,
  MapPinIcon,
  UsersIcon,
  WrenchIcon,
} from 'lucide-react';
import { Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AdminSummary } from '../../../shared/schemas/admin';
import { LoadFailureBoundary } from '../../components/load-failure-boundary';
import { LinkButton } from '../../components/link-button';
import { SummaryCards, type SummaryCard } from '../../components/summary-cards';
import { Spinner } from '../../components/ui/spinner';
import { SubpageHeader } from '../../components/subpage-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useT, withTexts } from '../../lib/i18n';
import { prefetchOnIntent } from '../../lib/interaction';
import { useCurrentUser } from '../../lib/session';
import { HydrationMark, screenHydrated } from '../../lib/page-hydration';
import { preloadable } from '../../lib/preloadable';
import { useStaffView, staffAreaName, type StaffView } from '../../lib/staff-view';
import { shownTab, tabFromSearch, visibleTabs, type AdminTab } from './admin-model';
import { BikesPanelShell } from './bikes-panel-shell';
import { BookingsTab } from './bookings-tab';
import { DeskBooking } from './desk-booking';
import { useAdminSummary } from './queries';
import { DamageReportsSection, OverdueRidesSection } from './ride-sections';
import { WaitlistSection } from './waitlist-section';

/**
 * The tabs after the first are chunks of their own, fetched when their trigger is pointed at,
 * focused or touched (or when the address names them): /admin's first screen, the bookings,
 * does not evaluate their forms and zod on a slow phone's main thread (decision 027). Each
 * brings its own part of the catalogue (decision 061): /admin's first download carries the
 * texts of its shell and of the bookings, not those of the other tabs.
 */
const bikesTab = preloadable(() => withTexts(import('./bikes-tab'), 'admin-biciclette'));
const usersTab = preloadable(() => withTexts(import('./users-tab'), 'admin-utenti'));
const rulesTab = preloadable(() => withTexts(import('./rules-tab'), 'admin-regole'));
const auditTab = preloadable(() => withTexts(import('./audit-tab'), 'admin-registro'));
const { load: loadBikesTab } = bikesTab;
const { load: loadUsersTab } = usersTab;
const { load: loadRulesTab } = rulesTab;
const { load: loadAuditTab } = auditTab;
const BikesTab = bikesTab.component((m) => m.BikesTab);
const UsersTab = usersTab.component((m) => m.UsersTab);
const RulesTab = rulesTab.component((m) => m.RulesTab);
const AuditTab = auditTab.component((m) => m.AuditTab);

const TAB_LOADERS: Partial<Record<AdminTab, () => Promise<unknown>>> = {
  biciclette: loadBikesTab,
  utenti: loadUsersTab,
  regole: loadRulesTab,
  registro: loadAuditTab,
};

/** Every tab, loaded ahead by the server's render (boot/entry-server.tsx). */
export const loadEveryTab = () => Promise.all(Object.values(TAB_LOADERS).map((load) => load?.()));

/** The tab the address names, loaded before a page the server rendered with it is hydrated. */
export function loadTabFor(search: string): Promise<unknown> {
  // A tab whose chunk fails to load does not keep /admin from opening: the tab asks for it
  // again when it renders, and says so if that fails too (LoadFailureBoundary).
  return TAB_LOADERS[tabFromSearch(search)]?.().catch(() => undefined) ?? Promise.resolve();
}

/** A tab's own boundary (a chunk of its own); `tab` names it to the page's hydration (lib/page-hydration.ts). */
function TabLoading({ tab, children, fallback }: { tab: AdminTab; children: ReactNode; fallback?: ReactNode }) {
  const t = useT();
  return (
    <LoadFailureBoundary scope="section">
      <Suspense fallback={fallback ?? <Spinner label={t('adminPage.loading')} showLabel className="py-6" />}>
        {children}
        <HydrationMark part={tab} />
      </Suspense>
    </LoadFailureBoundary>
  );
}

const isTab = (value: string | null | undefined): value is AdminTab =>
  value === 'prenotazioni' || value === 'biciclette' || value === 'utenti' || value === 'regole' || value === 'registro';

/**
 * A tab chosen before the page hydrated (boot/early-controls.ts shows a tab whose panel the HTML
 * holds: decision 039) is the tab React renders from then on: read once, at hydration.
 */
function useTabChosenEarly(list: RefObject<HTMLDivElement | null>, tab: AdminTab, selectTab: (next: string) => void) {
  useEffect(() => {
    const chosen = list.current?.querySelector('[role="tab"][aria-selected="true"]')?.getAttribute('data-value');
    if (isTab(chosen) && chosen !== tab) selectTab(chosen);
    // Once, as the page hydrates.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** The page's title: the admin's, or the staff member's role (issue 48: `Portineria`, `Officina`, `Gestione`). */
function useAdminTitle(): { title: string; description: string } {
  const t = useT();
  const name = staffAreaName(useCurrentUser().data);
  if (!name || name === 'admin') return { title: t('adminPage.title'), description: t('adminPage.description') };
  return { title: t(`staffArea.${name}`), description: t('staffArea.description') };
}

function AdminHeader({ view }: { view: StaffView }) {
  const t = useT();
  const { title, description } = useAdminTitle();
  return (
    <SubpageHeader title={title} description={description} width="max-w-6xl">
        <div className="mt-3 flex flex-wrap gap-2">
          {view.may('banco') ? <DeskBooking /> : null}
          <nav aria-label={t('adminPage.otherSections')} className="flex flex-wrap gap-2">
            {/* The workshop's screen (issue 48), for staff: the admin has the tickets here. */}
            {!view.isAdmin && view.may('interventi') ? (
              <LinkButton href="/officina" icon={WrenchIcon} variant="outline" size="sm">
                {t('staffArea.tickets')}
              </LinkButton>
            ) : null}
            {view.may('statistiche') ? (
              <LinkButton href="/admin/statistiche" icon={BarChart3Icon} variant="outline" size="sm">
                {t('adminPage.statistics')}
              </LinkButton>
            ) : null}
            {/* The daily reports are the install's (the admin's); so are the sedi: always, for the admin who configures the install (issue 47). */}
            {view.isAdmin ? (
              <>
                <LinkButton href="/doc" icon={FileTextIcon} variant="outline" size="sm">
                  {t('adminPage.dailyReports')}
                </LinkButton>
                <LinkButton href="/admin/sedi" icon={MapPinIcon} variant="outline" size="sm">
                  {t('sediPage.link')}
                </LinkButton>
              </>
            ) : null}
          </nav>
        </div>
    </SubpageHeader>
  );
}

function AdminSummaryCards({ summary, isPending }: { summary: AdminSummary | undefined; isPending: boolean }) {
  const t = useT();
  const cards: (Omit<SummaryCard, 'state'> & { value: string | undefined })[] = [
    { label: t('adminPage.bikesInUse'), icon: BikeIcon, value: summary && String(summary.biciInUsoOra) },
    {
      label: t('adminPage.bikesAvailable'),
      icon: BikeIcon,
      value: summary && t('adminPage.availableOfTotal', { available: summary.biciDisponibili, total: summary.biciTotali }),
    },
    { label: t('adminPage.totalUsers'), icon: UsersIcon, value: summary && String(summary.utentiTotali) },
    { label: t('adminPage.completedToday'), icon: CheckCircle2Icon, value: summary && String(summary.completateOggi) },
    { label: t('adminPage.bikesOverdue'), icon: AlarmClockIcon, value: summary && String(summary.ritardi) },
    { label: t('adminPage.damageToCheck'), icon: WrenchIcon, value: summary && String(summary.danniAperti) },
  ];
  return (
    <SummaryCards
      id="riepilogo-admin"
      cards={cards.map((card): SummaryCard => ({ ...card, state: card.value !== undefined ? 'ready' : isPending ? 'loading' : 'error' }))}
      className="lg:grid-cols-3"
    />
  );
}

/** Four tabs fit side by side on a 375 px phone with a little less padding; the fifth wraps below. */
const TAB = 'px-2 sm:px-3';

/**
 * /admin (spec §2 "Admin dashboard"). The route guard lets in an admin or a staff member (issue
 * 48), who sees only the tabs and actions of their roles; the server checks every call.
 */
export function AdminPage() {
  const t = useT();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const view = useStaffView();
  const tabs = visibleTabs(view);
  const tab = shownTab(tabFromSearch(search), tabs);
  // The counts of the person's sedi (the server keeps them to those): the desk's too, not the workshop's.
  const summary = useAdminSummary(view.may('prenotazioni'));

  function selectTab(next: string) {
    navigate(next === tabs[0] ? location : `${location}?tab=${next}`, { replace: true });
  }
  const tabList = useRef<HTMLDivElement>(null);
  useTabChosenEarly(tabList, tab, selectTab);
  // The boundaries within the screen as it first rendered: the address's tab, when it is a chunk
  // of its own. A page refreshed behind its device copy (boot/device-copy.ts) waits for them.
  const [hydrationParts] = useState(() => (tab === 'prenotazioni' ? [] : [tab]));
  useEffect(() => screenHydrated(hydrationParts), [hydrationParts]);
  // The admin confirmed by the server is the device's user: the worker may paint this page's copy next time.
  const { data: user } = useCurrentUser();
  useEffect(() => {
    if (user) void import('../../offline/session-fallback').then((m) => m.rememberConfirmedUser(user)).catch(() => undefined);
  }, [user]);

  return (
    <div className="min-h-dvh pb-12">
      <AdminHeader view={view} />
      <main className="mx-auto grid max-w-6xl gap-6 px-4 pt-6 sm:px-6">
        {/* The install's numbers and its damage list are the admin's; the desk has its sede's late rides and waitlists. */}
        {view.isAdmin ? <AdminSummaryCards summary={summary.data} isPending={summary.isPending} /> : null}
        {view.may('prenotazioni') ? (
          <>
            <OverdueRidesSection />
            <WaitlistSection />
          </>
        ) : null}
        {view.isAdmin ? <DamageReportsSection /> : null}
        {/* Below the fold on a phone: the browser lays the tabs out when they come near the screen,
            not while the page loads (a page of 50 rows costs a slow phone hundreds of ms). */}
        <Tabs value={tab} onValueChange={selectTab} className="min-w-0 [contain-intrinsic-size:auto_40rem] [content-visibility:auto]">
          <TabsList ref={tabList} aria-label={t('adminPage.sections')} className="h-auto flex-wrap">
            {/* data-early-tab: the HTML holds the panel's first screen, a tap shows it before hydration. */}
            {tabs.includes('prenotazioni') ? (
              <TabsTrigger value={'prenotazioni' satisfies AdminTab} className={TAB} data-early-tab="">{t('adminPage.tabBookings')}</TabsTrigger>
            ) : null}
            {tabs.includes('biciclette') ? (
              <TabsTrigger value={'biciclette' satisfies AdminTab} className={TAB} data-early-tab="" {...prefetchOnIntent(loadBikesTab)}>{t('adminPage.tabBikes')}</TabsTrigger>
            ) : null}
            {tabs.includes('utenti') ? (
              <TabsTrigger value={'utenti' satisfies AdminTab} className={TAB} {...prefetchOnIntent(loadUsersTab)}>{t('adminPage.tabUsers')}</TabsTrigger>
            ) : null}
            {tabs.includes('regole') ? (
              <TabsTrigger value={'regole' satisfies AdminTab} className={TAB} {...prefetchOnIntent(loadRulesTab)}>
                {view.isAdmin ? t('adminPage.tabRules') : t('staffArea.closuresOnly')}
              </TabsTrigger>
            ) : null}
            {tabs.includes('registro') ? (
              <TabsTrigger value={'registro' satisfies AdminTab} className={TAB} {...prefetchOnIntent(loadAuditTab)}>{t('adminPage.tabAudit')}</TabsTrigger>
            ) : null}
          </TabsList>
          <TabsContent value="prenotazioni">
            <BookingsTab />
          </TabsContent>
          <TabsContent value="biciclette" early={<BikesPanelShell />}>
            <TabLoading tab="biciclette" fallback={<BikesPanelShell />}>
              <BikesTab summary={summary.data} />
            </TabLoading>
          </TabsContent>
          <TabsContent value="utenti">
            <TabLoading tab="utenti">
              <UsersTab />
            </TabLoading>
          </TabsContent>
          <TabsContent value="regole">
            <TabLoading tab="regole">
              <RulesTab />
            </TabLoading>
          </TabsContent>
          <TabsContent value="registro">
            <TabLoading tab="registro">
              <AuditTab />
            </TabLoading>
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}
