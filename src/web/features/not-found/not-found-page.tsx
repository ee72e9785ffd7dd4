import { CircleAlertIcon, HomeIcon } from 'lucide-react';
import { LinkButton } from '../../components/link-button';
import { Card, CardContent } from '../../components/ui/card';
import { useT } from '../../lib/i18n';
import { useStarted } from '../../lib/started';

export function NotFoundPage() {
  useStarted();
  const t = useT();
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-8">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <CircleAlertIcon className="size-12 text-destructive" aria-hidden="true" />
          <h1 className="text-2xl font-bold">{t('notFoundPage.title')}</h1>
          <p className="text-muted-foreground">{t('notFoundPage.text')}</p>
          <LinkButton href="/" icon={HomeIcon}>
            {t('notFoundPage.home')}
          </LinkButton>
        </CardContent>
      </Card>
    </main>
  );
}
