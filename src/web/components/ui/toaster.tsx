import { useEffect, useRef, type RefObject } from 'react';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';
import { dismissToast, useToast } from './use-toast';

/**
 * The space the toasts take from the top of the screen, as `--toast-space` on the document:
 * on a phone they stand at the top, where a dialog opens too, and the dialogs keep below them
 * (styles.css). The welcome toast covered the top of a dialog opened at once (issue 31).
 */
function useToastSpace(viewport: RefObject<HTMLOListElement | null>): void {
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const root = document.documentElement;
    const measure = () => {
      const shown = element.querySelector('[data-slot="toast"]') !== null;
      root.style.setProperty('--toast-space', shown ? `${Math.ceil(element.getBoundingClientRect().bottom)}px` : '0px');
    };
    // A toast that comes or goes changes the viewport's size.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => {
      observer.disconnect();
      root.style.removeProperty('--toast-space');
    };
  }, [viewport]);
}

/** Renders the notifications of `toast()`. Mount once, near the root. */
export function Toaster() {
  const { toasts } = useToast();
  const viewport = useRef<HTMLOListElement>(null);
  useToastSpace(viewport);
  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          {...(duration === undefined ? {} : { duration })}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport ref={viewport} />
    </ToastProvider>
  );
}
