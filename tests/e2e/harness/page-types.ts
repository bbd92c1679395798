/**
 * The few browser globals the specs touch inside `page.evaluate`, typed here because the test
 * code is compiled without the DOM library (it runs in Node; only these callbacks run in the page).
 */
export interface PageElement {
  readonly tagName: string;
  readonly outerHTML: string;
  textContent: string | null;
  value?: string;
  getAttribute(name: string): string | null;
  appendChild(child: PageElement): PageElement;
}

export interface PageViolation {
  readonly violatedDirective: string;
  readonly effectiveDirective: string;
  readonly blockedURI: string;
}

export interface PageWindow {
  document: {
    documentElement: PageElement;
    head: PageElement;
    createElement(tag: string): PageElement;
    querySelectorAll(selector: string): ArrayLike<PageElement>;
    addEventListener(type: 'securitypolicyviolation', listener: (e: PageViolation) => void): void;
  };
  getComputedStyle(element: PageElement): { backgroundColor: string; color: string };
  [name: string]: unknown;
}
