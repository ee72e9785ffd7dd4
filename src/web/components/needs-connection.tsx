import { ArrowLeftIcon, WifiOffIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useT } from '../lib/i18n';
import type { PlainKey } from '../lib/plain-key';
import { useBrowserOffline } from '../offline/connectivity';
import { Button } from './ui/button';
import { Card, CardContent } from './ui/card';

/**
 * The screens that only work with the server, by the start of their address (as lib/guards.ts
 * names paths), and what each says offline (issue 22). The dashboard is not here: it opens
 * offline with the data kept on the device.
 */
const NEEDS_CONNECTION: readonly { prefix: string; text: PlainKey; back: '/dashboard' | '/login' }[] = [
  { prefix: '/admin/statistiche', text: 'needsConnection.stats', back: '/dashboard' },
  { prefix: '/admin', text: 'needsConnection.admin', back: '/dashboard' },
  { prefix: '/doc', text: 'needsConnection.reports', back: '/dashboard' },
  { prefix: '/profilo', text: 'needsConnection.profile', back: '/dashboard' },
  { prefix: '/payment', text: 'needsConnection.pay', back: '/dashboard' },
  { prefix: '/checkout', text: 'needsConnection.pay', back: '/dashboard' },
  { prefix: '/pagamento-simulato', text: 'needsConnection.pay', back: '/dashboard' },
  { prefix: '/registrazione', text: 'needsConnection.register', back: '/login' },
  { prefix: '/recupera-password', text: 'needsConnection.recoverPassword', back: '/login' },
  { prefix: '/cambio-password', text: 'needsConnection.changePassword', back: '/login' },
];

/** What the screen at `path` says offline, or null when it works offline. */
export function connectionNeed(path: string) {
  return NEEDS_CONNECTION.find((n) => path === n.prefix || path.startsWith(`${n.prefix}/`)) ?? null;
}

/**
 * A screen that needs the network, opened offline, says so instead of waiting for
 * answers that cannot come, and shows itself once the browser is online again. A screen
 * already open stays when the network goes (its own requests say what failed), so nothing
 * typed is lost.
 */
export function NeedsConnection({ children }: { children: ReactNode }) {
  const t = useT();
  const [location] = useLocation();
  const offline = useBrowserOffline();
  const need = connectionNeed(location);
  const [blockedAt, setBlockedAt] = useState(offline && need ? location : null);
  if (blockedAt !== null && (!offline || blockedAt !== location)) setBlockedAt(null);
  if (blockedAt === null || !need) return <>{children}</>;
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-8">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <WifiOffIcon className="size-12 text-amber-700" aria-hidden="true" />
          <h1 className="text-2xl font-bold">{t('needsConnection.title')}</h1>
          <p role="status">{t(need.text)}</p>
          <p className="text-sm text-muted-foreground">{t('needsConnection.opensBack')}</p>
          <Button asChild variant="outline">
            <Link href={need.back}>
              <ArrowLeftIcon aria-hidden="true" />
              {need.back === '/login' ? t('needsConnection.backToLogin') : t('needsConnection.backToDashboard')}
            </Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
