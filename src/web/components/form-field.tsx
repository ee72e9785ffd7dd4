import type { ReactNode } from 'react';
import { Label } from './ui/label';
import { cn } from '../lib/utils';

/** The attributes that tie an input to its label, hint and error message. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  required: boolean;
}

interface FormFieldProps {
  id: string;
  label: ReactNode;
  /** Shown under the label, read with the input. */
  hint?: ReactNode;
  /** The validation message; marks the input invalid and is read with it. */
  error?: string | undefined;
  required?: boolean;
  className?: string;
  /** Renders the input with the given props spread on it. */
  children: (control: FieldControlProps) => ReactNode;
  /** Something shown under the input and the error (a badge, say). */
  after?: ReactNode;
}

/** A label, an input, an optional hint and the field's error, linked for screen readers. */
export function FormField({ id, label, hint, error, required = false, className, children, after }: FormFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {hint ? (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy, required })}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {after}
    </div>
  );
}
