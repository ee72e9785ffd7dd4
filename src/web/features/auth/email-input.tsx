import type { ComponentProps } from 'react';
import { Input } from '../../components/ui/input';

/** An email input with the keyboard and autofill hints phones need. */
export function EmailInput(props: ComponentProps<typeof Input>) {
  return <Input type="email" inputMode="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...props} />;
}
