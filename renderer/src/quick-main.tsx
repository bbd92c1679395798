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

// Replies are drawn by the chat's markdown, which speaks with the chat's words (a code block's
// Copy, an image's link): those are in before the first paint, in the last language shown.
Promise.all([loadNamespace('chat'), activateLocale(startLocale())]).then(render, render);
