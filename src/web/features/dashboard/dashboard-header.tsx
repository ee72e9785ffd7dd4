import { PAGE_BAR_END_ID, PAGE_HEADER_ID } from '../../../shared/server-page';
import { BikeIcon, ShieldCheckIcon, UserRoundIcon, WrenchIcon } from 'lucide-react';
import type { SessionUser } from '../../../shared/api-types';
import { Badge } from '../../components/ui/badge';
import { LogoutButton } from '../../components/subpage-header';
import { LinkButton } from '../../components/link-button';
import { useT } from '../../lib/i18n';
import { mayOpenWorkshop, staffAreaName } from '../../../shared/staff';

/** Top bar (brand, admin button, profile, logout) and the welcome line with the user's name. */
export function DashboardHeader({ user }: { user: SessionUser }) {
  const t = useT();
  // Staff (issue 48) reach /admin too, by the name of their role: `Portineria`, `Officina`, `Gestione`.
  const area = staffAreaName(user);
  return (
    <header id={PAGE_HEADER_ID} className="border-b bg-card">
      {/* As tall as the buttons (h-11, sm:h-9) from the first paint: a paint while the parser has the
          brand but not yet the buttons moved the brand down by 4 px when they came. */}
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-2 sm:px-6">
        <span className="flex min-h-11 items-center gap-2 text-lg font-bold tracking-tight sm:min-h-9">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <BikeIcon className="size-5" aria-hidden="true" />
          </span>
          BiciElis
        </span>
        <nav aria-label={t('dashboardHeader.account')} className="flex items-center gap-1 sm:gap-2">
          {user.ruolo === 'admin' ? (
            <LinkButton href="/dashboard-admin" icon={ShieldCheckIcon} variant="outline" size="sm">
              {t('dashboardHeader.admin')}
            </LinkButton>
          ) : area && area !== 'admin' ? (
            <LinkButton href="/admin" icon={ShieldCheckIcon} variant="outline" size="sm">
              {t(`staffLink.${area}`)}
            </LinkButton>
          ) : null}
          {/* Issue 48: staff who see repair tickets reach the workshop's screen (an admin, from /admin). */}
          {user.ruolo !== 'admin' && mayOpenWorkshop(user) ? (
            <LinkButton href="/officina" icon={WrenchIcon} variant="outline" size="sm" title={t('officinaLink.label')}>
              <span className="sr-only sm:not-sr-only">{t('officinaLink.label')}</span>
            </LinkButton>
          ) : null}
          {/* On a phone the icon alone (its name stays "Profilo"): the bar must fit 320 px. */}
          <LinkButton href="/profilo" icon={UserRoundIcon} variant="ghost" size="sm" title={t('dashboardHeader.profile')}>
            <span className="sr-only sm:not-sr-only">{t('dashboardHeader.profile')}</span>
          </LinkButton>
          <LogoutButton />
        </nav>
      </div>
      <span id={PAGE_BAR_END_ID} hidden />
      <div className="mx-auto flex max-w-5xl flex-col gap-2 px-4 pt-5 pb-6 sm:px-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">
            {t('dashboardHeader.welcome', { nome: user.nome, cognome: user.cognome })}
          </h1>
          {user.isResidente ? <Badge variant="success">{t('dashboardHeader.resident')}</Badge> : null}
        </div>
        <p className="text-muted-foreground">{t('dashboardHeader.intro')}</p>
      </div>
    </header>
  );
}
