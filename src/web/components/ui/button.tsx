import { cva, type VariantProps } from 'class-variance-authority';
import { LoaderCircleIcon } from 'lucide-react';
import { cloneElement, isValidElement, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { cn } from '../../lib/utils';

export const buttonVariants = cva(
  [
    'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md text-base font-medium transition-colors sm:text-sm',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
    'disabled:pointer-events-none disabled:opacity-50',
    "[&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4",
  ],
  {
    variants: {
      variant: {
        default: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover',
        secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
        outline: 'border border-input bg-card text-foreground shadow-sm hover:bg-accent',
        destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
        ghost: 'text-foreground hover:bg-accent',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      // At least 44 px tall on phones (touch targets); a little smaller from `sm` up.
      size: {
        default: 'h-11 px-4 py-2 sm:h-10',
        sm: 'h-11 px-3 sm:h-9',
        // The base's `text-base` stands (a second one here made every large button's list one tailwind-merge changes).
        lg: 'h-12 px-6',
        icon: 'size-11 sm:size-10',
      },
    },
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the child element (a link, say) with the button's look instead of a <button>. */
    asChild?: boolean;
  };

type ChildProps = Record<string, unknown> & { className?: string; style?: object };

/**
 * `asChild`: the one child element (a link) with the button's props. Its own props win, its
 * handlers run before the button's, the classes and styles are joined. In place of Radix's
 * Slot, which would put 1.5 KB gzip in the login's first download (its budget, issue 49).
 */
function withButtonProps(children: ReactNode, props: ChildProps): ReactNode {
  if (!isValidElement<ChildProps>(children)) return null;
  const own = children.props;
  const merged: ChildProps = { ...props, ...own };
  for (const [name, value] of Object.entries(props)) {
    const mine = own[name];
    if (/^on[A-Z]/.test(name) && typeof value === 'function' && typeof mine === 'function') {
      merged[name] = (...args: unknown[]) => {
        (mine as (...a: unknown[]) => void)(...args);
        (value as (...a: unknown[]) => void)(...args);
      };
    }
  }
  merged.className = cn(props.className, own.className);
  if (props.style || own.style) merged.style = { ...props.style, ...own.style };
  return cloneElement(children as ReactElement<ChildProps>, merged);
}

export function Button({ className, variant, size, asChild = false, type, children, ...props }: ButtonProps) {
  if (asChild) {
    return withButtonProps(children, { 'data-slot': 'button', className: cn(buttonVariants({ variant, size }), className), ...props });
  }
  return (
    <button
      data-slot="button"
      type={type ?? 'button'}
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    >
      {children}
    </button>
  );
}

/** A button's leading icon, replaced by a spinning one while its action runs. */
export function ButtonIcon({ pending, icon = null }: { pending: boolean; icon?: ReactNode }) {
  return pending ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : icon;
}
