import { I18nProvider } from '@lingui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { activateLocale, i18n } from './i18n/i18n';
import { startLocale } from './i18n/locale';
import './app/tokens.css';
import './app/app.css';
import './components/components.css';
import './features/connect/connect.css';
import './features/models/models.css';
import './features/settings/settings.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

function render() {
  createRoot(container!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <App />
      </I18nProvider>
    </StrictMode>,
  );
}

// The first paint is in the last language shown (English is in this script; another is fetched).
activateLocale(startLocale()).then(render, render);
