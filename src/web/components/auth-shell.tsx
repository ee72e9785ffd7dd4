import { BikeIcon } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './ui/card';
import { useT } from '../lib/i18n';
import { cn } from '../lib/utils';

interface AuthShellProps {
  /** The card's title (an h2 under the BiciElis h1). */
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Wider card for longer forms (registration). */
  wide?: boolean;
  /** Changing this moves the focus to the title again (e.g. form → sent). */
  focusKey?: string;
}

/**
 * The frame of the account screens: the BiciElis brand and one card. When the screen
 * (or its `focusKey`) changes, the focus moves to the card title, so keyboard and screen
 * reader users start from the top of the new content.
 */
export function AuthShell({ title, description, children, footer, wide = false, focusKey }: AuthShellProps) {
  const t = useT();
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Not away from a field: on a pre-rendered page a person may be typing before it is live.
    if (document.activeElement?.matches('input, textarea, select')) return;
    titleRef.current?.focus({ preventScroll: true });
  }, [focusKey]);

  return (
    // Top-aligned, not centred: the page is painted from the HTML as it arrives, and a centred
    // card would jump up as the rest of it came in (a layout shift).
    <main className="flex min-h-dvh items-start justify-center px-4 pt-10 pb-8 sm:pt-16">
      <div className={cn('w-full', wide ? 'max-w-lg' : 'max-w-sm')}>
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex size-16 items-center justify-center rounded-2xl bg-primary text-primary-foreground shadow-md">
            <BikeIcon className="size-9" aria-hidden="true" />
          </span>
          <h1 className="text-3xl font-bold tracking-tight">BiciElis</h1>
          <p className="text-muted-foreground">{t('loginPage.tagline')}</p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle ref={titleRef} tabIndex={-1} className="outline-none">
              {title}
            </CardTitle>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
          {footer ? <CardFooter className="flex-col gap-1 text-center text-sm">{footer}</CardFooter> : null}
        </Card>
      </div>
    </main>
  );
}

/** A link styled for the footer of the account cards; 44 px tall for touch. */
export const authLinkClass =
  'inline-flex min-h-11 items-center font-medium text-primary underline underline-offset-4 hover:text-primary-hover';
