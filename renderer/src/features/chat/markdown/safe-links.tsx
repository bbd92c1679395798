/**
 * Links and images from model output: only http(s) addresses become links, opened in a new
 * window that main hands to the system browser after its own check; images are never fetched.
 */
import type { ReactNode } from 'react';
import { useT } from '../../../i18n/i18n';

/** The address if it is an absolute http(s) URL, otherwise undefined. */
export function webAddress(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function SafeLink({ href, children }: { href?: string | undefined; children?: ReactNode }) {
  const address = webAddress(href);
  if (!address) return <span className="md-link-text">{children}</span>;
  return (
    <a href={address} target="_blank" rel="noreferrer noopener" title={address}>
      {children}
    </a>
  );
}

/** An image in model output, shown as a link to it: the renderer never loads remote images. */
export function ImageAsLink({ src, alt }: { src?: string | undefined; alt?: string | undefined }) {
  const t = useT();
  const address = webAddress(src);
  const label = alt?.trim() || t('chat.image.unnamed');
  if (!address)
    return <span className="md-image-link">{t('chat.image.notLinked', { label })}</span>;
  return (
    <a
      className="md-image-link"
      href={address}
      target="_blank"
      rel="noreferrer noopener"
      title={address}
    >
      {t('chat.image.link', { label })}
    </a>
  );
}

/** Keeps every address as written; `SafeLink` and `ImageAsLink` decide what becomes a link. */
export function keepUrl(url: string): string {
  return url;
}
