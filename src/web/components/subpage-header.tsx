import { PAGE_BAR_END_ID, PAGE_HEADER_ID } from '../../shared/server-page';
import { ArrowLeftIcon, LogOutIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useLogout } from './use-logout';
import { LinkButton } from './link-button';
import { Button, ButtonIcon } from './ui/button';
import { useT } from '../lib/i18n';

/**
 * The bar of a page reached from the dashboard (admin, profile): back to the dashboard and
 * `Esci`, then the page's title and what it holds; `children` go under them (links).
 */
export function SubpageHeader({
  title,
  description,
  width,
  children,
}: {
  title: string;
  description: string;
  /** The page's content width, so that the bar lines up with it. */
  width: 'max-w-3xl' | 'max-w-6xl';
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <header id={PAGE_HEADER_ID} className="border-b bg-card">
      <div className={`mx-auto flex ${width} items-center justify-between gap-3 px-4 py-2 sm:px-6`}>
        <LinkButton href="/dashboard" icon={ArrowLeftIcon} variant="ghost" size="sm">
          {t('logout.dashboard')}
        </LinkButton>
        <LogoutButton />
      </div>
      <span id={PAGE_BAR_END_ID} hidden />
      <div className={`mx-auto ${width} px-4 pt-3 pb-5 sm:px-6`}>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        <p className="text-muted-foreground">{description}</p>
        {children}
      </div>
    </header>
  );
}

/** `Esci`: ends the session (a spinner while it does). */
export function LogoutButton() {
  const t = useT();
  const logout = useLogout();
  return (
    <Button variant="ghost" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
      <ButtonIcon pending={logout.isPending} icon={<LogOutIcon aria-hidden="true" />} />
      {t('logout.button')}
    </Button>
  );
}
