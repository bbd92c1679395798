/**
 * The app's one icon set: line icons on a 20-unit grid, drawn in the text colour (`currentcolor`)
 * with a 1.5 stroke, so they follow the theme and every state colour. Decorative: the control that
 * holds an icon carries the name (a visible label, or `aria-label`). No emoji anywhere: a system
 * without an emoji font shows them as boxes.
 */
import type { ReactNode } from 'react';

const PATHS = {
  chat: (
    <path d="M4 4.5h12a1.5 1.5 0 0 1 1.5 1.5v7a1.5 1.5 0 0 1-1.5 1.5H9l-4 3v-3H4A1.5 1.5 0 0 1 2.5 13V6A1.5 1.5 0 0 1 4 4.5z" />
  ),
  prompts: (
    <>
      <path d="M5 3.5h10a1.5 1.5 0 0 1 1.5 1.5v11.5L13 14.5l-3 2-3-2-3.5 2V5A1.5 1.5 0 0 1 5 3.5z" />
      <path d="M7 7.5h6M7 10.5h4" />
    </>
  ),
  knowledge: (
    <>
      <path d="M3.5 4.5c2.2-.8 4.4-.6 6.5 1 2.1-1.6 4.3-1.8 6.5-1v11c-2.2-.8-4.4-.6-6.5 1-2.1-1.6-4.3-1.8-6.5-1z" />
      <path d="M10 5.5v11" />
    </>
  ),
  models: (
    <>
      <rect x="3" y="3" width="6" height="6" rx="1.5" />
      <rect x="11" y="3" width="6" height="6" rx="1.5" />
      <rect x="3" y="11" width="6" height="6" rx="1.5" />
      <rect x="11" y="11" width="6" height="6" rx="1.5" />
    </>
  ),
  embeddings: (
    <>
      <circle cx="5" cy="14" r="1.6" />
      <circle cx="9" cy="6" r="1.6" />
      <circle cx="15" cy="9" r="1.6" />
      <path d="M6.2 12.8l2-5.4M10.5 6.7l3 1.6" />
    </>
  ),
  images: (
    <>
      <rect x="3" y="4" width="14" height="12" rx="1.5" />
      <circle cx="7.5" cy="8" r="1.3" />
      <path d="M3.5 14l4-4 3 3 2-2 4 4" />
    </>
  ),
  usage: <path d="M3.5 16.5h13M5.5 13.5v-3M9 13.5v-7M12.5 13.5v-5M16 13.5V4.5" />,
  connections: (
    <>
      <path d="M8 12l4-4" />
      <path d="M9.5 5.5l1-1a3.2 3.2 0 014.5 4.5l-1 1" />
      <path d="M10.5 14.5l-1 1A3.2 3.2 0 015 11l1-1" />
    </>
  ),
  tools: (
    <path d="M12.2 3.6a3.8 3.8 0 0 0-4.7 4.9L3.4 12.6a1.6 1.6 0 0 0 2.3 2.3l4.1-4.1a3.8 3.8 0 0 0 4.9-4.7l-2.2 2.2-2-.6-.6-2z" />
  ),
  settings: (
    <>
      <circle cx="10" cy="10" r="2.5" />
      <path d="M10 2.5v2M10 15.5v2M2.5 10h2M15.5 10h2M4.7 4.7l1.4 1.4M13.9 13.9l1.4 1.4M4.7 15.3l1.4-1.4M13.9 6.1l1.4-1.4" />
    </>
  ),
  keyboard: (
    <>
      <rect x="2.5" y="5" width="15" height="10" rx="1.5" />
      <path d="M5.5 8h1M9.5 8h1M13.5 8h1M6 12h8" />
    </>
  ),
  plus: <path d="M10 4v12M4 10h12" />,
  pin: (
    <>
      <path d="M7.5 3.5h5M8.5 3.5v4.2L6 10.5v1.5h8v-1.5l-2.5-2.8V3.5" />
      <path d="M10 12v4.5" />
    </>
  ),
  branch: (
    <>
      <circle cx="6" cy="4.5" r="1.5" />
      <circle cx="6" cy="15.5" r="1.5" />
      <circle cx="14" cy="6.5" r="1.5" />
      <path d="M6 6v8M14 8c0 3.5-8 2.5-8 6" />
    </>
  ),
  more: (
    <>
      <circle cx="5" cy="10" r="1.1" />
      <circle cx="10" cy="10" r="1.1" />
      <circle cx="15" cy="10" r="1.1" />
    </>
  ),
  send: <path d="M10 16V4.5M5 9l5-5 5 5" />,
  stop: <rect x="5.5" y="5.5" width="9" height="9" rx="1.5" />,
  copy: (
    <>
      <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
      <path d="M13 7V5A1.5 1.5 0 0 0 11.5 3.5h-6.5A1.5 1.5 0 0 0 3.5 5v6.5A1.5 1.5 0 0 0 5 13h2" />
    </>
  ),
  edit: <path d="M12.5 4.5l3 3-8.5 8.5H4v-3zM11 6l3 3" />,
  regenerate: (
    <>
      <path d="M15.5 10a5.5 5.5 0 1 1-1.6-3.9" />
      <path d="M15.5 3.5v3.2h-3.2" />
    </>
  ),
  continue: <path d="M7 5l6 5-6 5z" />,
  /** A model that reads images. */
  eye: (
    <>
      <path d="M2.5 10s2.75-5 7.5-5 7.5 5 7.5 5-2.75 5-7.5 5-7.5-5-7.5-5z" />
      <circle cx="10" cy="10" r="2.25" />
    </>
  ),
  clock: (
    <>
      <circle cx="10" cy="10" r="6.5" />
      <path d="M10 6.5V10l2.5 1.5" />
    </>
  ),
  'arrow-down': <path d="M10 4v11.5M5 10.5l5 5 5-5" />,
  sidebar: (
    <>
      <rect x="2.5" y="4" width="15" height="12" rx="1.5" />
      <path d="M7.5 4v12" />
    </>
  ),
  sliders: (
    <>
      <path d="M3.5 6h8M15 6h1.5M3.5 14h1.5M8.5 14h8" />
      <circle cx="13" cy="6" r="1.6" />
      <circle cx="6.8" cy="14" r="1.6" />
    </>
  ),
  close: <path d="M5 5l10 10M15 5L5 15" />,
  attach: (
    <path d="M15.5 9.5l-5.8 5.8a3.5 3.5 0 0 1-5-5l6.3-6.3a2.3 2.3 0 0 1 3.3 3.3l-6.2 6.2a1.1 1.1 0 0 1-1.6-1.6l5.6-5.6" />
  ),
  file: (
    <>
      <path d="M5.5 2.5h6l3.5 3.5v11.5h-9.5z" />
      <path d="M11.5 2.5V6H15" />
    </>
  ),
  folder: (
    <path d="M2.5 6A1.5 1.5 0 0 1 4 4.5h3.5l1.5 2h7A1.5 1.5 0 0 1 17.5 8v6.5A1.5 1.5 0 0 1 16 16H4a1.5 1.5 0 0 1-1.5-1.5z" />
  ),
  'chevron-down': <path d="M6 8l4 4 4-4" />,
  'chevron-right': <path d="M8 6l4 4-4 4" />,
  check: <path d="M4.5 10.5l3.5 3.5 7.5-8" />,
  search: (
    <>
      <circle cx="8.5" cy="8.5" r="5" />
      <path d="M12.5 12.5l4 4" />
    </>
  ),
  trash: <path d="M4 5.5h12M8 5.5V4h4v1.5M5.5 5.5l.8 10.5h7.4l.8-10.5" />,
  download: <path d="M10 3.5v9M6 9l4 4 4-4M4 16h12" />,
  sparkle: <path d="M10 3l1.6 4.4L16 9l-4.4 1.6L10 15l-1.6-4.4L4 9l4.4-1.6z" />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={['icon', className].filter(Boolean).join(' ')}
      viewBox="0 0 20 20"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name]}
    </svg>
  );
}
