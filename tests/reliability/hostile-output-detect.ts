/**
 * The detector of the hostile-output test: what would show that a payload got through.
 *
 * - In Node: an exfiltration server on a loopback port of its own (another origin than the app's)
 *   that records every request, and watchers on a Playwright page for dialogs, console output,
 *   requests to any other origin, navigations and popups.
 * - In the page: a canary (`__pwn(id)`), a scan of rendered messages for dangerous elements,
 *   event-handler attributes, non-http(s) links, loaded addresses and CSS `url()`, and a
 *   MutationObserver that runs the same scan on everything added while a reply streams (so a
 *   dangerous element that exists for a single frame is seen too).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';

export interface ExfilRequest {
  method: string;
  path: string;
  origin: string | undefined;
}

export interface ExfilServer {
  origin: string;
  /** Every request so far, the lab page's own load excepted. */
  requests: ExfilRequest[];
  /** A page without any CSP, for the lab (`<origin>/__lab`). */
  labUrl: string;
  close(): Promise<void>;
}

const LAB_PAGE =
  '<!doctype html><meta charset="utf-8"><title>lab</title><body><div id="lab"></div>';

export async function startExfilServer(): Promise<ExfilServer> {
  const requests: ExfilRequest[] = [];
  const record = (req: IncomingMessage) => {
    requests.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      origin: req.headers.origin ?? req.headers.referer,
    });
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/__lab') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(LAB_PAGE);
      return;
    }
    record(req);
    req.resume();
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    if (/\/(css|font)\//.test(path)) res.writeHead(200, { ...headers, 'content-type': 'text/css' });
    else if (/\/(m|preload)\//.test(path)) {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript' });
    } else res.writeHead(200, { ...headers, 'content-type': 'text/plain' });
    res.end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    requests,
    labUrl: `${origin}/__lab`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The payload ids a string names: `/f/12`, `PWN-12`, `alert` message `12`. */
export function idsIn(text: string): number[] {
  const ids: number[] = [];
  for (const match of text.matchAll(/(?:\/[a-z]+\/|PWN-|^)(\d+)(?:\.png|\/|$|\b)/g)) {
    ids.push(Number(match[1]));
  }
  return ids;
}

/** What Playwright sees of a page and its context while payloads render. */
export interface PageWatch {
  dialogs: string[];
  /** Console lines that name a payload (`PWN-…`). */
  payloadConsole: string[];
  /** Every console line, for the notes. */
  console: string[];
  /** Requests to any origin but the allowed one (data: and blob: included). */
  offsite: string[];
  /** Navigations of the main frame away from the allowed origin, popups, and a crash. */
  navigations: string[];
  stop(): void;
}

export function watchPage(page: Page, context: BrowserContext, allowedOrigin: string): PageWatch {
  const watch: PageWatch = {
    dialogs: [],
    payloadConsole: [],
    console: [],
    offsite: [],
    navigations: [],
    stop: () => undefined,
  };
  const onDialog = (dialog: { message(): string; dismiss(): Promise<void> }) => {
    watch.dialogs.push(dialog.message());
    void dialog.dismiss().catch(() => undefined);
  };
  const onConsole = (message: { text(): string }) => {
    const text = message.text();
    watch.console.push(text);
    if (text.includes('PWN')) watch.payloadConsole.push(text);
  };
  const onRequest = (request: { url(): string }) => {
    const url = request.url();
    let origin = 'null';
    try {
      origin = new URL(url).origin;
    } catch {
      // not a URL: counts as offsite
    }
    if (origin !== allowedOrigin) watch.offsite.push(url);
  };
  const onNavigated = (frame: { url(): string }) => {
    if (frame === page.mainFrame() && !frame.url().startsWith(allowedOrigin)) {
      watch.navigations.push(frame.url());
    }
  };
  const onCrash = () => watch.navigations.push('the page crashed');
  const onPopup = (popup: Page) => {
    watch.navigations.push(`popup ${popup.url()}`);
    void popup.close().catch(() => undefined);
  };
  page.on('dialog', onDialog);
  page.on('console', onConsole);
  page.on('framenavigated', onNavigated);
  page.on('crash', onCrash);
  context.on('request', onRequest);
  context.on('page', onPopup);
  watch.stop = () => {
    page.off('dialog', onDialog);
    page.off('console', onConsole);
    page.off('framenavigated', onNavigated);
    page.off('crash', onCrash);
    context.off('request', onRequest);
    context.off('page', onPopup);
  };
  return watch;
}

// ---------------------------------------------------------------------------------------------
// Page side. These functions run in the browser (page.evaluate); the test code is compiled
// without the DOM library, so the little DOM they use is typed here.

interface DomAttr {
  readonly name: string;
  readonly value: string;
}
interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
}
interface DomElement extends DomNode {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly outerHTML: string;
  readonly attributes: ArrayLike<DomAttr>;
  getAttribute(name: string): string | null;
  closest(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  remove(): void;
  appendChild(child: DomElement): DomElement;
  innerHTML: string;
  setAttribute(name: string, value: string): void;
}
interface DomWalker {
  nextNode(): DomNode | null;
}
interface DomMutation {
  readonly type: string;
  readonly target: DomNode;
  readonly addedNodes: ArrayLike<DomNode>;
}
interface DomWindow {
  document: {
    body: DomElement;
    createElement(tag: string): DomElement;
    createTreeWalker(root: DomElement, whatToShow: number): DomWalker;
    querySelectorAll(selector: string): ArrayLike<DomElement>;
    querySelector(selector: string): DomElement | null;
  };
  MutationObserver: new (callback: (mutations: DomMutation[]) => void) => {
    observe(target: DomElement, options: Record<string, boolean>): void;
  };
  __pwned?: number[];
  __pwn?: (id: number) => void;
  __pwnReport?: (id: number) => Promise<void>;
  __hostile?: HostileTools;
}

/** A finding of the scan: why, where (the payload marker before it), and the markup. */
export interface Finding {
  reason: string;
  payload: number | undefined;
  html: string;
}

export interface ScanResult {
  /** Payload ids whose marker was seen in the scanned messages. */
  markers: number[];
  findings: Finding[];
  /** Every `href` of a link in the scanned messages. */
  hrefs: string[];
  /** `<img>` elements with their src (none are expected). */
  images: string[];
}

interface HostileTools {
  scan(selector: string): ScanResult;
  observed: Finding[];
}

/**
 * Installs the canary and the scanner in the page. `contentSelector` names the containers of
 * model output (the app's `.chat-message .markdown`); `markerSource` the marker pattern.
 */
export function installDetector(
  page: Page,
  contentSelector: string,
  markerSource: string,
): Promise<void> {
  return page.evaluate(
    ([content, markerPattern]) => {
      const w = globalThis as unknown as DomWindow;
      if (w.__hostile) return;
      w.__pwned = [];
      w.__pwn = (id: number) => {
        w.__pwned!.push(id);
        // Where the test exposed it: the hit reaches the test at once.
        void w.__pwnReport?.(id);
      };
      const ELEMENT = 1;
      const TEXT = 3;
      const DANGEROUS = new Set([
        'script',
        'iframe',
        'frame',
        'frameset',
        'object',
        'embed',
        'applet',
        'form',
        'style',
        'link',
        'meta',
        'base',
        'portal',
        'template',
        'foreignobject',
        'image',
        'use',
        'animate',
        'set',
        'animatetransform',
        'animatemotion',
        'video',
        'audio',
        'source',
        'track',
        'picture',
        'img',
        'textarea',
        'select',
        'option',
        'marquee',
        'noscript',
        'body',
        'html',
        'head',
        'title',
        'svg:script',
        'maction',
        'isindex',
        'keygen',
        'dialog',
        'details',
      ]);
      const LOADING = new Set([
        'src',
        'srcset',
        'poster',
        'background',
        'action',
        'formaction',
        'data',
        'ping',
        'srcdoc',
        'dynsrc',
        'lowsrc',
        'codebase',
        'archive',
        'manifest',
        'icon',
        'longdesc',
        'profile',
        'cite',
        'xlink:href',
        'xml:base',
        'to',
        'values',
        'from',
        'by',
      ]);
      const CSS_LOAD = /url\s*\(|@import|expression\s*\(|image-set|\\/i;
      const markerRegex = new RegExp(markerPattern, 'g');

      function webLink(href: string): boolean {
        try {
          const url = new URL(href);
          return (url.protocol === 'http:' || url.protocol === 'https:') && href === url.href;
        } catch {
          return false;
        }
      }

      function judge(el: DomElement): string | undefined {
        const tag = el.localName.toLowerCase();
        if (DANGEROUS.has(tag)) return `element <${tag}>`;
        if (tag === 'input') {
          const checkbox =
            el.getAttribute('type') === 'checkbox' && el.getAttribute('disabled') !== null;
          if (!checkbox) return 'element <input>';
        }
        if (tag === 'button' && el.getAttribute('class') !== 'md-code-copy') {
          return 'element <button>';
        }
        for (const attr of Array.from(el.attributes)) {
          const name = attr.name.toLowerCase();
          if (name.startsWith('on')) return `attribute ${name}`;
          if (name === 'href') {
            const htmlAnchor = tag === 'a' && el.namespaceURI === 'http://www.w3.org/1999/xhtml';
            if (!htmlAnchor) return `href on <${tag}>`;
            if (!webLink(attr.value)) return `link to ${attr.value.slice(0, 80)}`;
          }
          if (LOADING.has(name)) return `attribute ${name} on <${tag}>`;
          if (name === 'style' && CSS_LOAD.test(attr.value))
            return `style ${attr.value.slice(0, 80)}`;
          if (name === 'http-equiv' || name === 'autofocus' || name === 'contenteditable') {
            return `attribute ${name}`;
          }
        }
        return undefined;
      }

      function describe(el: DomElement, reason: string, payload: number | undefined): Finding {
        return { reason, payload, html: el.outerHTML.slice(0, 300) };
      }

      function scan(selector: string): ScanResult {
        const markers = new Set<number>();
        const findings: Finding[] = [];
        const hrefs: string[] = [];
        const images: string[] = [];
        for (const root of Array.from(w.document.querySelectorAll(selector))) {
          let current: number | undefined;
          const walker = w.document.createTreeWalker(root, 1 | 4);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.nodeType === TEXT) {
              for (const match of (node.textContent ?? '').matchAll(markerRegex)) {
                current = Number(match[1]);
                markers.add(current);
              }
              continue;
            }
            if (node.nodeType !== ELEMENT) continue;
            const el = node as DomElement;
            if (el.localName === 'a' && el.getAttribute('href') !== null) {
              hrefs.push(el.getAttribute('href')!);
            }
            if (el.localName === 'img') images.push(el.getAttribute('src') ?? '');
            const reason = judge(el);
            if (reason) findings.push(describe(el, reason, current));
          }
        }
        return { markers: [...markers], findings, hrefs, images };
      }

      const observed: Finding[] = [];
      function watchElement(el: DomElement): void {
        if (!el.closest(content)) return;
        const reason = judge(el);
        if (reason) observed.push(describe(el, reason, undefined));
        for (const child of Array.from(el.querySelectorAll('*'))) {
          const why = judge(child);
          if (why) observed.push(describe(child, why, undefined));
        }
      }
      new w.MutationObserver((mutations) => {
        for (const mutation of mutations) {
          if (mutation.type === 'attributes') {
            if (mutation.target.nodeType === ELEMENT) {
              const el = mutation.target as DomElement;
              if (el.closest(content)) {
                const reason = judge(el);
                if (reason) observed.push(describe(el, reason, undefined));
              }
            }
            continue;
          }
          for (const node of Array.from(mutation.addedNodes)) {
            if (node.nodeType === ELEMENT) watchElement(node as DomElement);
          }
        }
      }).observe(w.document.body, { childList: true, subtree: true, attributes: true });

      w.__hostile = { scan, observed };
    },
    [contentSelector, markerSource] as const,
  );
}

/** Scans the model output now in the page. */
export function scanPage(page: Page, selector: string): Promise<ScanResult> {
  return page.evaluate(
    (sel) => (globalThis as unknown as DomWindow).__hostile!.scan(sel),
    selector,
  );
}

/** What the canary caught and what the observer saw, emptied when `reset`. */
export function pageCatches(
  page: Page,
  reset = false,
): Promise<{ canary: number[]; observed: Finding[] }> {
  return page.evaluate((clear) => {
    const w = globalThis as unknown as DomWindow;
    const result = { canary: [...(w.__pwned ?? [])], observed: [...(w.__hostile?.observed ?? [])] };
    if (clear) {
      w.__pwned = [];
      if (w.__hostile) w.__hostile.observed.length = 0;
    }
    return result;
  }, reset);
}

/**
 * Renders HTML as a naive renderer would (innerHTML), one container per payload, inside the
 * element `parentSelector` names (false when there is none). Used to prove the detector catches an unsafe rendering.
 */
export function renderUnsafely(
  page: Page,
  parentSelector: string,
  items: ReadonlyArray<{ id: number; html: string }>,
): Promise<boolean> {
  return (
    page
      .evaluate(
        ([parent, list]) => {
          const w = globalThis as unknown as DomWindow;
          const host = w.document.querySelector(parent);
          // A payload that ran may have replaced the document (document.open, a navigation).
          if (!host) return false;
          for (const item of list) {
            const box = w.document.createElement('div');
            box.setAttribute('data-unsafe', String(item.id));
            box.innerHTML = `<p>⟦H${item.id}⟧</p>${item.html}`;
            host.appendChild(box);
          }
          return true;
        },
        [parentSelector, items] as const,
      )
      // The page navigated away while the payloads were inserted.
      .catch(() => false)
  );
}

/** Removes what `renderUnsafely` added. */
export function removeUnsafe(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = globalThis as unknown as DomWindow;
    for (const el of Array.from(w.document.querySelectorAll('[data-unsafe]'))) el.remove();
  });
}
