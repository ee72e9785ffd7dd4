import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The login's autofill request, with the browser's side replaced: how many conditional
 * requests the page begins when the form is used while the support check is still pending
 * (a CI run saw two: the mount's and the email field's focus, the second one unheld).
 */
const browser = vi.hoisted(() => ({
  supported: [] as Array<(value: boolean) => void>,
  requests: [] as Array<{ autofill: boolean; stillWanted: () => boolean }>,
  cancelled: 0,
}));

vi.mock('../../lib/webauthn', () => ({
  LOGIN_ENDPOINTS: { options: '/api/auth/passkey/opzioni', verify: '/api/auth/passkey' },
  autofillSupported: () => new Promise<boolean>((resolve) => browser.supported.push(resolve)),
  signInWithPasskey: (_endpoints: unknown, options: { autofill: boolean; stillWanted: () => boolean }) => {
    browser.requests.push(options);
    return new Promise(() => undefined);
  },
  cancelCeremony: async () => {
    browser.cancelled += 1;
  },
  ceremonyCancelled: () => false,
}));
vi.mock('../../components/ui/use-toast', () => ({ toast: () => undefined }));

const { attachAutofill } = await import('./passkey-login');

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the login's autofill request", () => {
  beforeEach(() => {
    browser.supported.length = 0;
    browser.requests.length = 0;
    browser.cancelled = 0;
  });

  it('begins one request when the email field is focused while the support check is pending', async () => {
    const form = new EventTarget() as unknown as HTMLFormElement;
    const detach = attachAutofill(form, () => undefined);
    form.dispatchEvent(new Event('focusin'));
    form.dispatchEvent(new Event('focusin'));
    for (const resolve of browser.supported) resolve(true);
    await settle();
    expect(browser.supported).toHaveLength(1);
    expect(browser.requests).toHaveLength(1);
    expect(browser.requests[0]?.autofill).toBe(true);
    detach();
  });

  it('begins none when the form is sent before the support check answers', async () => {
    const form = new EventTarget() as unknown as HTMLFormElement;
    const detach = attachAutofill(form, () => undefined);
    form.dispatchEvent(new Event('submit'));
    for (const resolve of browser.supported) resolve(true);
    await settle();
    expect(browser.requests).toHaveLength(0);
    detach();
  });

  it('a request begun before the form is sent is no longer wanted, and is aborted', async () => {
    const form = new EventTarget() as unknown as HTMLFormElement;
    const detach = attachAutofill(form, () => undefined);
    for (const resolve of browser.supported) resolve(true);
    await settle();
    expect(browser.requests).toHaveLength(1);
    expect(browser.requests[0]?.stillWanted()).toBe(true);
    form.dispatchEvent(new Event('submit'));
    expect(browser.requests[0]?.stillWanted()).toBe(false);
    expect(browser.cancelled).toBe(1);
    detach();
  });
});
