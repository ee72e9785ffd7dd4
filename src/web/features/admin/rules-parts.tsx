import type { ComponentProps } from 'react';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { FieldError } from '../../components/field-error';

/** A labelled input with its error below it, tied by aria-describedby (the rules' forms). */
export function CheckedField({
  id,
  label,
  error,
  onValue,
  ...input
}: { id: string; label: string; error: string | undefined; onValue: (value: string) => void } & Omit<
  ComponentProps<typeof Input>,
  'id' | 'onChange' | 'aria-invalid' | 'aria-describedby'
>) {
  return (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        {...input}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={id} message={error} />
    </div>
  );
}

/**
 * The server's refusal, told next to what was refused (the toast says it too, but in a modal
 * dialog the toast is outside it, hidden from screen readers).
 */
export function InlineError({ message }: { message: string | null }) {
  return (
    <div role="alert" className="empty:hidden">
      {message ? <p className="rounded-lg border border-destructive/40 bg-red-50 p-3 text-sm font-medium text-destructive">{message}</p> : null}
    </div>
  );
}
