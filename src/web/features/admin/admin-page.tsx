import {
  AlarmClockIcon,
  ArrowLeftIcon,
  BarChart3Icon,
  BikeIcon,
  CheckCircle2Icon,
  FileTextIcon,
  LogOutIcon,
  UsersIcon,
  WrenchIcon,
  type LucideIcon,
} from 'lucide-react';
import { Link, useLocation, useSearch } from 'wouter';
import type { AdminSummary } from '../../../shared/schemas/admin';
import { Button, ButtonIcon } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useLogout } from '../auth/use-logout';
import { tabFromSearch, type AdminTab } from './admin-model';
import { BikesTab } from './bikes-tab';
import { BookingsTab } from './bookings-tab';
import { useAdminSummary } from './queries';
import { DamageReportsSection, OverdueRidesSection } from './ride-sections';
import { UsersTab } from './users-tab';

function AdminHeader() {
  const logout = useLogout();
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2 sm:px-6">
        <Button asChild variant="ghost" size="sm">
          <Link href="/dashboard">
            <ArrowLeftIcon aria-hidden="true" />
            Dashboard
          </Link>
        </Button>
        <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <ButtonIcon pending={logout.isPending} icon={<LogOutIcon aria-hidden="true" />} />
          Esci
        </Button>
      </div>
      <div className="mx-auto max-w-6xl px-4 pt-3 pb-5 sm:px-6">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Dashboard Amministratore</h1>
        <p className="text-muted-foreground">Prenotazioni, biciclette e utenti di BiciElis.</p>
        <nav aria-label="Altre sezioni" className="mt-3 flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link href="/admin/statistiche">
              <BarChart3Icon aria-hidden="true" />
              Statistiche
            </Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link href="/doc">
              <FileTextIcon aria-hidden="true" />
              Report giornalieri
            </Link>
          </Button>
        </nav>
      </div>
    </header>
  );
}

function SummaryCards({ summary, isPending }: { summary: AdminSummary | undefined; isPending: boolean }) {
  const cards: { label: string; icon: LucideIcon; value: string | undefined }[] = [
    { label: 'Bici in uso ora', icon: BikeIcon, value: summary && String(summary.biciInUsoOra) },
    {
      label: 'Bici disponibili',
      icon: BikeIcon,
      value: summary && `${summary.biciDisponibili} di ${summary.biciTotali}`,
    },
    { label: 'Utenti totali', icon: UsersIcon, value: summary && String(summary.utentiTotali) },
    { label: 'Completate Oggi', icon: CheckCircle2Icon, value: summary && String(summary.completateOggi) },
    { label: 'Bici in ritardo', icon: AlarmClockIcon, value: summary && String(summary.ritardi) },
    { label: 'Danni da controllare', icon: WrenchIcon, value: summary && String(summary.danniAperti) },
  ];
  return (
    <section aria-labelledby="riepilogo-admin">
      <h2 id="riepilogo-admin" className="sr-only">
        Riepilogo
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {cards.map(({ label, icon: Icon, value }) => (
          <div key={label} className="flex flex-col gap-2 rounded-xl border bg-card p-4 shadow-sm">
            <dt className="flex items-start justify-between gap-2 text-sm font-medium text-muted-foreground">
              {label}
              <Icon className="size-5 shrink-0 text-primary" aria-hidden="true" />
            </dt>
            <dd className="text-2xl font-bold tabular-nums">
              {value !== undefined ? (
                value
              ) : isPending ? (
                <Spinner label="Caricamento..." />
              ) : (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">Non disponibile</span>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** /admin (spec §2 "Admin dashboard"). The route guard guarantees an admin; the server checks every call. */
export function AdminPage() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const tab = tabFromSearch(search);
  const summary = useAdminSummary();

  function selectTab(next: string) {
    navigate(next === 'prenotazioni' ? location : `${location}?tab=${next}`, { replace: true });
  }

  return (
    <div className="min-h-dvh pb-12">
      <AdminHeader />
      <main className="mx-auto grid max-w-6xl gap-6 px-4 pt-6 sm:px-6">
        <SummaryCards summary={summary.data} isPending={summary.isPending} />
        <OverdueRidesSection />
        <DamageReportsSection />
        <Tabs value={tab} onValueChange={selectTab}>
          <TabsList aria-label="Sezioni">
            <TabsTrigger value={'prenotazioni' satisfies AdminTab}>Prenotazioni</TabsTrigger>
            <TabsTrigger value={'biciclette' satisfies AdminTab}>Biciclette</TabsTrigger>
            <TabsTrigger value={'utenti' satisfies AdminTab}>Utenti</TabsTrigger>
          </TabsList>
          <TabsContent value="prenotazioni">
            <BookingsTab />
          </TabsContent>
          <TabsContent value="biciclette">
            <BikesTab summary={summary.data} />
          </TabsContent>
          <TabsContent value="utenti">
            <UsersTab />
          </TabsContent>
        </Tabs>
      </main>
    </div>
  );
}
