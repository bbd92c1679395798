import { useState } from 'react';
import { relayBridge } from '../lib/relay-bridge';

const SCREENS = [
  {
    id: 'connect',
    title: 'Connect',
    summary: 'Point the app at a relay and keep its key in the keychain.',
  },
  { id: 'chat', title: 'Chat', summary: 'Streaming conversations with any chat model.' },
  { id: 'embeddings', title: 'Embeddings', summary: 'Embed texts and compare them side by side.' },
  { id: 'images', title: 'Images', summary: 'Generate images, saved as files with their prompts.' },
] as const;

type ScreenId = (typeof SCREENS)[number]['id'];

/** The app shell: a sidebar of screens and the selected screen. */
export function App() {
  const [screenId, setScreenId] = useState<ScreenId>('connect');
  const screen = SCREENS.find((candidate) => candidate.id === screenId) ?? SCREENS[0];
  const appVersion = relayBridge()?.appVersion;

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Screens">
        <h1 className="brand">Relay Desktop</h1>
        <ul className="nav-list">
          {SCREENS.map((candidate) => (
            <li key={candidate.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={candidate.id === screenId ? 'page' : undefined}
                onClick={() => setScreenId(candidate.id)}
              >
                {candidate.title}
              </button>
            </li>
          ))}
        </ul>
        {appVersion && <p className="version">Version {appVersion}</p>}
      </nav>
      <main className="screen">
        <h2>{screen.title}</h2>
        <p className="summary">{screen.summary}</p>
        <p className="placeholder">This screen is not available yet.</p>
      </main>
    </div>
  );
}
