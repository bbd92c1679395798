import { useEffect } from 'react';
import { EmptyState } from '../components/empty-state';
import { StreamingMarkdown } from '../features/chat/markdown/streaming-markdown';
import '../features/chat/chat.css';
import { QuickAskScreen } from '../features/quick-ask/quick-ask-screen';
import { loadSettings } from '../features/settings/settings-actions';
import { selectTheme, useSettingsStore } from '../features/settings/settings-store';
import { relayBridge } from '../lib/relay-bridge';

/** The quick ask window's page: the quick ask feature, with the chat's markdown for replies. */
export function QuickApp() {
  const bridge = relayBridge();
  const theme = useSettingsStore(selectTheme);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // The theme may have changed in the main window while this one was hidden.
  useEffect(() => {
    if (!bridge) return;
    void loadSettings();
    return bridge.onQuickAskShown(() => void loadSettings());
  }, [bridge]);

  if (!bridge) {
    return (
      <main className="welcome">
        <EmptyState title="Relay Desktop is not running">
          <p>This page is the app&apos;s quick ask window and only works inside Relay Desktop.</p>
        </EmptyState>
      </main>
    );
  }
  return (
    <QuickAskScreen
      renderReply={(text, streaming) => <StreamingMarkdown text={text} streaming={streaming} />}
    />
  );
}
