import type { ReactNode } from 'react';

/** A box with a heading: one part of the rules. */
export function RulesCard({ title, description, children, id }: { title: string; description: ReactNode; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="grid gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="grid gap-1">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={`${id}-error`} className="text-sm font-medium text-destructive">
      {message}
    </p>
  ) : null;
}
