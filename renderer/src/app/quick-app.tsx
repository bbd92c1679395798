import { useEffect } from 'react';
import { EmptyState } from '../components/empty-state';
import { StreamingMarkdown } from '../features/chat/markdown/streaming-markdown';
import '../features/chat/chat.css';
import { QuickAskScreen } from '../features/quick-ask/quick-ask-screen';
import { selectTheme, useSettingsStore } from '../features/settings/settings-store';
import { useT } from '../i18n/i18n';
import { useAppLocale } from '../i18n/locale';
import { runsInsideApp, watchQuickWindowSettings } from './app-actions';

/**
 * The quick ask window's page: the quick ask feature, with the chat's markdown for replies. It
 * follows the theme and the language chosen in the main window: read when it is shown, and
 * followed while it is open (main sends every saved change of the settings to both windows).
 */
export function QuickApp() {
  const inside = runsInsideApp();
  const theme = useSettingsStore(selectTheme);
  const t = useT();
  useAppLocale();

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  useEffect(() => (inside ? watchQuickWindowSettings() : undefined), [inside]);

  if (!inside) {
    return (
      <main className="welcome">
        <EmptyState title={t('quickAsk.notRunning.title')}>
          <p>{t('quickAsk.notRunning.body')}</p>
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
