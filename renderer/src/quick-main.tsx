import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QuickApp } from './app/quick-app';
import './app/tokens.css';
import './app/app.css';
import './components/components.css';
import './features/quick-ask/quick-ask.css';

const container = document.getElementById('root');
if (!container) throw new Error('quick.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <QuickApp />
  </StrictMode>,
);
