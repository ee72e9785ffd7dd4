import { CircleAlertIcon, HomeIcon } from 'lucide-react';
import { LinkButton } from '../../components/link-button';
import { Card, CardContent } from '../../components/ui/card';
import { useStarted } from '../../lib/started';

export function NotFoundPage() {
  useStarted();
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-8">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-4 text-center">
          <CircleAlertIcon className="size-12 text-destructive" aria-hidden="true" />
          <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          <p className="text-muted-foreground">La pagina che cerchi non esiste o è stata spostata.</p>
          <LinkButton href="/" icon={HomeIcon}>
            Torna alla home
          </LinkButton>
        </CardContent>
      </Card>
    </main>
  );
}
