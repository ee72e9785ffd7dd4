import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';

/** Network conditions as CDP's `Network.emulateNetworkConditions` takes them. */
export interface NetworkProfile {
  offline: false;
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

/** Throttles a page (network and CPU) through its own CDP session. */
export async function throttlePage(context: BrowserContext, page: Page, network: NetworkProfile, cpuSlowdown: number): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', network);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  return cdp;
}

/**
 * Throttles the network of the service worker of `origin` too (a target of its own, which the
 * page's session does not cover), through the browser's session, non-flat so that Playwright's
 * own sessions are left alone. The session is returned: detached, the throttling would go.
 */
export async function throttleServiceWorker(browser: Browser, origin: string, network: NetworkProfile): Promise<CDPSession> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const worker = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(origin));
  if (!worker) throw new Error(`nessun service worker di ${origin}`);
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
  let id = 0;
  const send = (method: string, params: object) =>
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method, params }) });
  await send('Network.enable', {});
  await send('Network.emulateNetworkConditions', network);
  return cdp;
}
