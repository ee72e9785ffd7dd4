import { createContext, use, useId, type ComponentProps, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/utils';

/**
 * Tabs after WAI-ARIA's tabs pattern (automatic activation), as Radix's were until
 * 2026-11-26: a `tablist` of `tab` buttons, one `tabpanel` (the selected one's), the arrow
 * keys, Home and End moving among the tabs and selecting (wrapping at the ends), one tab in
 * the Tab order (roving `tabIndex`). Written here rather than taken from Radix because
 * Radix's panel measures its animation at mount (`Presence` reads `getComputedStyle`), which
 * forced a style recalculation inside `/admin`'s hydration commit, the longest task of that
 * page's start (decision 027, docs/performance.md). Only `/admin` uses tabs; this is what it
 * needs and no more: controlled (`value`, `onValueChange`), horizontal, no disabled tabs.
 */

interface TabsState {
  value: string;
  select: (value: string) => void;
  baseId: string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = use(TabsContext);
  if (!state) throw new Error('Tabs: TabsList, TabsTrigger e TabsContent vanno dentro Tabs');
  return state;
}

const tabId = (baseId: string, value: string) => `${baseId}-tab-${value}`;
const panelId = (baseId: string, value: string) => `${baseId}-panel-${value}`;

export function Tabs({
  value,
  onValueChange,
  className,
  ...props
}: Omit<ComponentProps<'div'>, 'onChange'> & { value: string; onValueChange: (value: string) => void }) {
  const baseId = useId();
  return (
    <TabsContext value={{ value, select: (next) => next !== value && onValueChange(next), baseId }}>
      <div data-slot="tabs" data-orientation="horizontal" className={cn('flex flex-col gap-4', className)} {...props} />
    </TabsContext>
  );
}

/** The tabs' own keys: ← → move to the previous or next tab (round the ends), Home and End to the first or last; each selects the tab it reaches. */
function moveAmongTabs(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const at = tabs.indexOf(event.target as HTMLButtonElement);
  if (at < 0) return;
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  // Focusing the tab selects it (its onFocus).
  tabs[(next + tabs.length) % tabs.length]?.focus();
}

export function TabsList({ className, onKeyDown, ...props }: ComponentProps<'div'>) {
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      data-slot="tabs-list"
      className={cn('inline-flex w-full items-center gap-1 overflow-x-auto rounded-lg bg-muted p-1 sm:w-fit', className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) moveAmongTabs(event);
      }}
      {...props}
    />
  );
}

export function TabsTrigger({ value, className, onClick, onFocus, ...props }: Omit<ComponentProps<'button'>, 'value'> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      id={tabId(tabs.baseId, value)}
      aria-controls={panelId(tabs.baseId, value)}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      data-value={value}
      data-slot="tabs-trigger"
      className={cn(
        'inline-flex h-11 flex-1 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors sm:h-9 sm:flex-none',
        'hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        'disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
        className,
      )}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        if (!event.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

/**
 * The selected tab's panel. The others render nothing, or, given `early`, a hidden panel with
 * that first screen: a page the server rendered can then show it on a tap before it has
 * hydrated (boot/early-controls.ts, decision 039).
 */
export function TabsContent({ value, className, early, children, ...props }: ComponentProps<'div'> & { value: string; early?: ReactNode }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  if (!selected && early === undefined) return null;
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.baseId, value)}
      aria-labelledby={tabId(tabs.baseId, value)}
      tabIndex={0}
      hidden={!selected}
      data-state={selected ? 'active' : 'inactive'}
      data-orientation="horizontal"
      data-slot="tabs-content"
      className={cn('focus-visible:outline-2 focus-visible:outline-ring', className)}
      {...props}
    >
      {selected ? children : early}
    </div>
  );
}
