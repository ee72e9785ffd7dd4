/** A field's mistake under it, `${id}-error` (the field names it in its aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="text-sm font-medium text-destructive">
      {message}
    </p>
  ) : null;
}
