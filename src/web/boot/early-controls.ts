/**
 * What a page the server renders for its user does before the app's code (decisions 039, 060,
 * 067, 068): /admin's early tab, the booking form's and the return dialog's fields opened
 * natively, the lock's code asked for at the rack. Built into that page's after-paint.js, before
 * after-paint.ts (vite.config.ts), with no imports; the login's after-paint.js has none of it
 * (decision 074).
 */
import type { RideCodeDto } from '../../shared/schemas/locks';
import type { EarlyLockCodes } from '../lib/early-lock-codes';

/*
 * /admin's tabs: a tab whose panel the HTML holds (`data-early-tab`: the first screen of
 * `Biciclette`, features/admin/bikes-panel-shell.tsx) is selected on a tap before the page has
 * hydrated, as the tabs do (components/ui/tabs.tsx): `aria-selected`, the roving tabindex,
 * `data-state`, the panels shown and hidden. Once hydrated, the page reads the selected tab
 * and renders it (admin-page.tsx); the tabs themselves handle every tap from then on.
 */
function selectEarlyTab(target: Element): void {
  const tab = target.closest<HTMLElement>('[role="tab"][data-early-tab]');
  const list = tab?.closest('[role="tablist"]');
  if (!tab || !list) return;
  const panelOf = (t: Element) => document.getElementById(t.getAttribute('aria-controls') ?? '');
  if (!panelOf(tab)) return;
  for (const t of list.querySelectorAll<HTMLElement>('[role="tab"]')) {
    const selected = t === tab;
    t.setAttribute('aria-selected', String(selected));
    t.tabIndex = selected ? 0 : -1;
    t.dataset.state = selected ? 'active' : 'inactive';
    const panel = panelOf(t);
    if (panel) {
      panel.hidden = !selected;
      panel.dataset.state = selected ? 'active' : 'inactive';
    }
  }
  tab.focus();
}

/*
 * `Nuova prenotazione` shows the booking form's first fields natively, before the app's code
 * (a popover that holds the state "opened": decision 039). Without this file (JavaScript off)
 * they open all the same; with it:
 * - until the page has hydrated (`data-started` on #root), the events of those buttons (and of /admin's tabs, below) stop
 *   here, before React's listeners on #root: React would first hydrate the whole page at once,
 *   in the tap's own task, and the fields would wait for it. Their native action is all there
 *   is until then; once hydrated, the page reads the popover's state (early-booking-fields.tsx);
 * - the focus moves as the form moves it: to the date when the fields open, back to the button
 *   when `Annulla` closes them (at the popover's `toggle`, a task after the tap's).
 */
const EARLY_CONTROL =
  '[data-early-open], [data-early-booking] button[popovertarget], [role="tab"][data-early-tab], [data-early-dialog-open], [data-early-dialog] button[popovertarget]';
for (const type of ['pointerdown', 'pointerup', 'touchstart', 'touchend', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'focusin']) {
  window.addEventListener(
    type,
    (event) => {
      const target = event.target;
      if (!(target instanceof Element) || !target.closest(EARLY_CONTROL)) return;
      if (document.getElementById('root')?.hasAttribute('data-started') !== false) return;
      if (type === 'click') selectEarlyTab(target);
      event.stopPropagation();
    },
    { capture: true, passive: true },
  );
}
document.addEventListener(
  'toggle',
  (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.hasAttribute('data-early-switch')) return;
    const holder = target.parentElement;
    const next = (event as ToggleEvent).newState === 'open' ? firstEarlyField(holder) : holder?.querySelector<HTMLElement>('[data-early-open]');
    next?.focus();
  },
  true,
);

/*
 * `Riconsegnata` at the rack (decision 067): the button is the invoker of a popover that is the
 * return dialog's first screen (features/dashboard/ride-dialogs.tsx), shown natively before the
 * app's code. Until the page has hydrated the focus moves as a dialog moves it: into the dialog
 * when it opens, back to its button when it closes (`Annulla`, Escape, a tap outside). Once
 * hydrated the app hands the dialog over to its own and moves the focus itself.
 */
document.addEventListener(
  'toggle',
  (event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement) || !target.hasAttribute('data-early-dialog')) return;
    if (document.getElementById('root')?.hasAttribute('data-started') !== false) return;
    if ((event as ToggleEvent).newState === 'open') target.focus();
    else document.querySelector<HTMLElement>(`[data-early-dialog-open][popovertarget="${CSS.escape(target.id)}"]`)?.focus();
  },
  true,
);

/*
 * At the rack, the lock's code (decision 067): asked for now, not once the app has hydrated
 * (2–3 s later on a slow phone), and shown in the card as soon as it comes. The card's HTML holds
 * the code's box with its digits' place (`data-early-code`, features/dashboard/booking-item.tsx);
 * the app hydrates over it untouched there (those two elements are not compared) and takes this
 * same answer (lib/early-lock-codes.ts) rather than asking again. Only an answer of the right
 * shape is shown: anything else (a refusal, no network) is left to the app, which says why in
 * the person's language, or shows the device's copy.
 */
function askForLockCodes(): void {
  const boxes = document.querySelectorAll<HTMLElement>('[data-early-code][data-state="pending"]');
  if (boxes.length === 0) return;
  const early: EarlyLockCodes = (window.bicielisEarlyLockCodes ??= new Map());
  for (const box of boxes) {
    const id = Number(box.dataset.earlyCode);
    if (!Number.isSafeInteger(id) || id <= 0 || early.has(id)) continue;
    // As the head's preload asks (server-render.ts `earlyCodePreloads`), so that this is its answer, not a second question.
    const answer = fetch(`/api/prenotazioni/${id}/codice`, { credentials: 'include' })
      .then((res) => (res.ok ? (res.json() as Promise<unknown>) : null))
      .then(
        (body) => (isRideCode(body) ? body : null),
        () => null,
      );
    early.set(id, answer);
    void answer.then((code) => {
      const digits = box.querySelector('[data-early-digits]');
      // The app may have shown it (or something else) meanwhile: then the card is the app's.
      if (!code?.codice || !digits || !box.isConnected || box.dataset.state !== 'pending') return;
      digits.textContent = code.codice;
      box.dataset.state = 'ready';
    });
  }
}

/** Whether an answer has the shape of `GET /api/prenotazioni/{id}/codice`'s (shared/schemas/locks.ts `RideCodeDto`). */
function isRideCode(body: unknown): body is RideCodeDto {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    (b.tipo === 'nessuno' || b.tipo === 'combinazione' || b.tipo === 'smart') &&
    (b.codice === null || (typeof b.codice === 'string' && /^\d{4,12}$/.test(b.codice))) &&
    typeof b.validoDa === 'string' &&
    typeof b.validoFino === 'string'
  );
}

askForLockCodes();

// A tap that came before this file ran (a module script runs once the whole HTML is parsed:
// on a slow phone the button is on screen and live before that) opened the fields natively,
// and its `toggle` went by with no one listening: the focus moves now, as it would have then.
focusFieldsOpenedEarly();

function focusFieldsOpenedEarly() {
  const opened = openedEarlySwitch();
  const active = document.activeElement;
  if (opened && (!active || active === document.body || active.matches('[data-early-open]'))) {
    firstEarlyField(opened.parentElement)?.focus();
  }
}

/** The first of the fields an early switch shows: the booking's date, a report's `Che cosa non va` (decision 068). */
function firstEarlyField(holder: Element | null | undefined): HTMLElement | null | undefined {
  return holder?.querySelector<HTMLElement>('[data-early-booking] :is(input, select, textarea)');
}

function openedEarlySwitch(): HTMLElement | null {
  try {
    return document.querySelector<HTMLElement>('[data-early-switch]:popover-open');
  } catch {
    return null; // A browser without popovers: the fields never opened without the app.
  }
}
