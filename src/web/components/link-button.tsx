import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button, type ButtonProps } from './ui/button';

/** A link to another screen that looks like a button, its icon first (headers' `Dashboard`, `Statistiche`…). */
export function LinkButton({
  href,
  icon: Icon,
  variant,
  size,
  className,
  title,
  children,
}: {
  href: string;
  icon: LucideIcon;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
  /** The link's tooltip (e.g. when its text is hidden on a phone). */
  title?: string;
  children: ReactNode;
}) {
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link href={href} title={title}>
        <Icon aria-hidden="true" />
        {children}
      </Link>
    </Button>
  );
}
