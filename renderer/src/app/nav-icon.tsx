import type { ScreenId } from './screens';

/** Line icons for the sidebar, drawn in the text colour. */
export function NavIcon({ screen }: { screen: ScreenId | 'shortcuts' }) {
  return (
    <svg className="nav-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      {screen === 'models' && (
        <>
          <rect x="3" y="3" width="6" height="6" rx="1.5" />
          <rect x="11" y="3" width="6" height="6" rx="1.5" />
          <rect x="3" y="11" width="6" height="6" rx="1.5" />
          <rect x="11" y="11" width="6" height="6" rx="1.5" />
        </>
      )}
      {screen === 'images' && (
        <>
          <rect x="3" y="4" width="14" height="12" rx="1.5" />
          <circle cx="7.5" cy="8" r="1.3" />
          <path d="M3.5 14l4-4 3 3 2-2 4 4" />
        </>
      )}
      {screen === 'chat' && (
        <path d="M4 4.5h12a1.5 1.5 0 0 1 1.5 1.5v7a1.5 1.5 0 0 1-1.5 1.5H9l-4 3v-3H4A1.5 1.5 0 0 1 2.5 13V6A1.5 1.5 0 0 1 4 4.5z" />
      )}
      {screen === 'embeddings' && (
        <>
          <circle cx="5" cy="14" r="1.6" />
          <circle cx="9" cy="6" r="1.6" />
          <circle cx="15" cy="9" r="1.6" />
          <path d="M6.2 12.8l2-5.4M10.5 6.7l3 1.6" />
        </>
      )}
      {screen === 'connections' && (
        <>
          <path d="M8 12l4-4" />
          <path d="M9.5 5.5l1-1a3.2 3.2 0 014.5 4.5l-1 1" />
          <path d="M10.5 14.5l-1 1A3.2 3.2 0 015 11l1-1" />
        </>
      )}
      {screen === 'shortcuts' && (
        <>
          <rect x="2.5" y="5" width="15" height="10" rx="1.5" />
          <path d="M5.5 8h1M9.5 8h1M13.5 8h1M6 12h8" />
        </>
      )}
      {screen === 'settings' && (
        <>
          <circle cx="10" cy="10" r="2.5" />
          <path d="M10 2.5v2M10 15.5v2M2.5 10h2M15.5 10h2M4.7 4.7l1.4 1.4M13.9 13.9l1.4 1.4M4.7 15.3l1.4-1.4M13.9 6.1l1.4-1.4" />
        </>
      )}
    </svg>
  );
}
