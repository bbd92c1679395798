import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QuickApp } from './app/quick-app';
import { activateLocale, i18n, loadNamespace } from './i18n/i18n';
import { startLocale } from './i18n/locale';
import './app/tokens.css';
import './app/app.css';
import './components/components.css';
import './features/quick-ask/quick-ask.css';

const container = document.getElementById('root');
if (!container) throw new Error('quick.html has no #root element');

function render() {
  createRoot(container!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QuickApp />
      </I18nProvider>
    </StrictMode>,
  );
}

// The first paint is in the last language shown (the main window keeps it in the same storage),
// with the quick ask window's words and the chat's, which its replies' markdown speaks with (a
// code block's Copy, an image's link); the settings then say which language to follow.
Promise.all([
  loadNamespace('quick-ask'),
  loadNamespace('chat'),
  activateLocale(startLocale()),
]).then(render, render);
