import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { XIcon } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '../../../shared/constants';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';

export function ToastProvider(props: ComponentProps<typeof ToastPrimitive.Provider>) {
  const t = useT();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label={t('toasts.region')}
      {...props}
    />
  );
}

/** The notification area; F8 moves the focus to it. */
export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  const t = useT();
  return (
    <ToastPrimitive.Viewport
      data-slot="toast-viewport"
      hotkey={['F8']}
      // Radix puts the hotkey in place of `{hotkey}`.
      label={t('toasts.viewport', { hotkey: '{hotkey}' })}
      className={cn(
        'fixed top-0 z-[100] flex max-h-dvh w-full flex-col-reverse gap-2 p-4 outline-none sm:top-auto sm:right-0 sm:bottom-0 sm:max-w-[420px] sm:flex-col',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  [
    'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-12 shadow-lg',
    'data-[swipe=cancel]:translate-x-0 data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=move]:transition-none data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x)',
  ],
  {
    variants: {
      variant: {
        default: 'border-border bg-card text-card-foreground',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastProps = ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>;

export function Toast({ className, variant, ...props }: ToastProps) {
  return <ToastPrimitive.Root data-slot="toast" className={cn(toastVariants({ variant }), className)} {...props} />;
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-95', className)} {...props} />;
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  const t = useT();
  return (
    <ToastPrimitive.Close
      aria-label={t('toasts.close')}
      className={cn(
        'absolute top-1 right-1 inline-flex size-11 cursor-pointer items-center justify-center rounded-md opacity-80 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current',
        className,
      )}
      {...props}
    >
      <XIcon className="size-4" aria-hidden="true" />
    </ToastPrimitive.Close>
  );
}
