import { ReadFailure } from '../../components/read-failure';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { CheckboxField } from '../../components/checkbox-field';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import {
  LANGUAGE_NAMES,
  LOCALES,
  PSEUDO_LOCALE,
  type LanguageChoice,
} from '../../../../electron/shared/locales';
import { Message, useT, type MessageKey } from '../../i18n/i18n';
import { useSystemLocale } from '../../i18n/locale';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import type { KeyStorageStatus, Settings, Theme } from '../../lib/relay-bridge';
import { DesktopSection } from './desktop-section';
import { NetworkSection } from './network-section';
import {
  chooseLanguage,
  chooseTheme,
  loadKeyStorage,
  loadSettings,
  saveSettings,
} from './settings-actions';
import {
  fieldsOf,
  readSettingsFields,
  type SettingsErrors,
  type SettingsFields,
} from './settings-form';
import { useSettingsStore } from './settings-store';
import { UpdatesSection } from './updates-section';

const THEMES: { value: Theme; label: MessageKey; hint: MessageKey }[] = [
  { value: 'system', label: 'appearance.theme.system', hint: 'appearance.theme.system.hint' },
  { value: 'light', label: 'appearance.theme.light', hint: 'appearance.theme.light.hint' },
  { value: 'dark', label: 'appearance.theme.dark', hint: 'appearance.theme.dark.hint' },
];

/**
 * Settings: theme, default chat parameters and request timeouts, quick ask, the tray and start-up,
 * the network, updates, where keys are kept and the support log; `children` are sections of other
 * features the app shell places here (backups).
 */
export function SettingsScreen({
  testUrl,
  children,
}: { testUrl?: string | undefined; children?: ReactNode } = {}) {
  const status = useSettingsStore((state) => state.status);
  const settings = useSettingsStore((state) => state.settings);
  const failure = useSettingsStore((state) => state.failure);
  const content = useRef<HTMLDivElement>(null);
  const t = useT();

  return (
    <div className="page settings-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('settings.title')}</h1>
          <p className="page-lead">{t('settings.lead')}</p>
        </div>
      </header>
      {status === 'loading' && !settings ? (
        <p className="muted">
          <Spinner label={t('settings.loading')} /> {t('settings.loading')}
        </p>
      ) : !settings ? (
        <ReadFailure
          title={t('settings.unreadable')}
          message={failure?.message}
          onRetry={() => void loadSettings()}
        />
      ) : (
        <div className="settings-layout">
          <SectionIndex content={content} />
          <div className="settings-content" ref={content}>
            <ThemeChoice theme={settings.theme} language={settings.language} />
            <DefaultsForm settings={settings} />
            <DesktopSection settings={settings} />
            <NetworkSection settings={settings} testUrl={testUrl} />
            <UpdatesSection settings={settings} />
            {children}
            <KeyStorageChoice allowed={settings.allowPlaintextKeys} />
            <SupportLogChoice included={settings.includePromptsInLogs} />
          </div>
        </div>
      )}
    </div>
  );
}

/** The sections' headings in the page, in order: what the index lists. */
const HEADINGS = 'section[aria-labelledby] > h2[id]';

/** How much of the view's top the index covers: its height above the sections, none beside. */
function coveredBy(content: HTMLElement): number {
  const index = content.parentElement?.querySelector<HTMLElement>('.settings-index');
  if (!index) return 0;
  const beside = index.getBoundingClientRect().right <= content.getBoundingClientRect().left;
  return beside ? 0 : index.offsetHeight;
}

/**
 * The list of the page's sections, beside them on a wide window and above them on a narrow one:
 * each jumps to its section (and moves the focus there), and the one in view is marked.
 */
function SectionIndex({ content }: { content: RefObject<HTMLDivElement | null> }) {
  const t = useT();
  const [sections, setSections] = useState<Array<{ id: string; title: string }>>([]);
  const [current, setCurrent] = useState<string | undefined>();
  /** The section last jumped to: the last ones cannot scroll to the top, yet are in view. */
  const chosen = useRef<string | undefined>(undefined);

  useEffect(() => {
    const root = content.current;
    if (!root) return;
    const scroller = root.closest<HTMLElement>('.screen') ?? document.documentElement;
    const headings = () => Array.from(root.querySelectorAll<HTMLElement>(HEADINGS));
    const follow = () => {
      const all = headings();
      const top = scroller.getBoundingClientRect().top;
      const covered = coveredBy(root);
      let at = all[0]?.id;
      for (const heading of all) {
        if (heading.getBoundingClientRect().top - top <= covered + 48) at = heading.id;
      }
      const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      if (atEnd && chosen.current && all.some((h) => h.id === chosen.current)) {
        at = chosen.current;
      }
      setCurrent(at);
    };
    const read = () => {
      const next = headings().map((h) => ({ id: h.id, title: h.textContent ?? '' }));
      setSections((before) => (JSON.stringify(before) === JSON.stringify(next) ? before : next));
      follow();
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    const onScroll = () => {
      if (!(scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2)) {
        chosen.current = undefined;
      }
      follow();
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('scroll', onScroll);
    };
  }, [content]);

  const jump = (id: string) => {
    const heading = document.getElementById(id);
    const root = content.current;
    if (!heading || !root) return;
    chosen.current = id;
    // Below the index when it stands above the sections, however many lines it takes.
    heading.style.scrollMarginTop = `${coveredBy(root) + 16}px`;
    heading.scrollIntoView({ block: 'start' });
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    setCurrent(id);
  };

  return (
    <nav className="settings-index" aria-label={t('settings.index')}>
      <ul className="settings-index-list">
        {sections.map((section) => (
          <li key={section.id}>
            <button
              type="button"
              className="settings-index-link"
              aria-current={section.id === current ? 'location' : undefined}
              onClick={() => jump(section.id)}
            >
              {section.title}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ThemeChoice({ theme, language }: { theme: Theme; language: LanguageChoice }) {
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [languageFailure, setLanguageFailure] = useState<FailureInfo | undefined>();
  const t = useT();
  const languageId = useId();
  const system = useSystemLocale((state) => state.system);

  async function choose(next: Theme) {
    setFailure(undefined);
    try {
      await chooseTheme(next);
    } catch (error) {
      setFailure(failureOf(error));
    }
  }

  async function speak(next: LanguageChoice) {
    setLanguageFailure(undefined);
    try {
      await chooseLanguage(next);
    } catch (error) {
      setLanguageFailure(failureOf(error));
    }
  }

  return (
    <section className="card settings-section" aria-labelledby="appearance-title">
      <h2 className="card-title" id="appearance-title">
        {t('appearance.title')}
      </h2>
      <fieldset className="theme-choice">
        <legend className="field-label">{t('appearance.theme')}</legend>
        <div className="theme-options">
          {THEMES.map((option) => (
            <label key={option.value} className="theme-option">
              <input
                type="radio"
                name="theme"
                value={option.value}
                checked={theme === option.value}
                onChange={() => void choose(option.value)}
              />
              <span className={`theme-swatch theme-swatch-${option.value}`} aria-hidden="true" />
              <span className="theme-option-text">
                <span className="theme-option-label">{t(option.label)}</span>
                <span className="theme-option-hint">{t(option.hint)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {failure && (
        <Notice tone="error" title={t('appearance.themeNotSaved')}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      <div className="field">
        <label className="field-label" htmlFor={languageId}>
          {t('appearance.language')}
        </label>
        <select
          id={languageId}
          className="select"
          value={language}
          aria-describedby={`${languageId}-hint`}
          onChange={(event) => void speak(event.target.value as LanguageChoice)}
        >
          <option value="system">
            {system
              ? t('appearance.language.system', { language: LANGUAGE_NAMES[system] })
              : t('appearance.theme.system')}
          </option>
          {LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {LANGUAGE_NAMES[locale]}
            </option>
          ))}
          {language === PSEUDO_LOCALE && (
            <option value={PSEUDO_LOCALE} lang={PSEUDO_LOCALE}>
              {PSEUDO_LOCALE}
            </option>
          )}
        </select>
        <p className="field-hint" id={`${languageId}-hint`}>
          {t('appearance.language.hint')}
        </p>
      </div>
      {languageFailure && (
        <Notice tone="error" title={t('appearance.languageNotSaved')}>
          <p className="failure-message">{languageFailure.message}</p>
        </Notice>
      )}
    </section>
  );
}

type Card = 'chat' | 'requests';

/** Which card each field is in: its save is said there. */
const CARD_OF: Record<keyof SettingsFields, Card> = {
  temperature: 'chat',
  maxTokens: 'chat',
  attachmentMb: 'chat',
  contextTokens: 'chat',
  imageMaxSide: 'chat',
  toolTokenBudget: 'chat',
  toolMaxSteps: 'chat',
  toolMaxResultChars: 'chat',
  requestSeconds: 'requests',
  idleSeconds: 'requests',
};

/**
 * The chat defaults and request timeouts, saved as they are typed, like the theme: a change that
 * reads as valid goes to main at once; one that does not shows its error under its field and
 * waits, as typed, until it is put right (kept in the store if the person leaves meanwhile).
 */
function DefaultsForm({ settings }: { settings: Settings }) {
  const draft = useSettingsStore((state) => state.defaultsDraft);
  const [fields, setFields] = useState<SettingsFields>(() => draft ?? fieldsOf(settings));
  const [shown, setShown] = useState<ReadonlySet<keyof SettingsFields>>(() =>
    draft ? new Set(Object.keys(draft) as Array<keyof SettingsFields>) : new Set(),
  );
  const [outcome, setOutcome] = useState<
    { card: Card; state: 'saving' | 'saved' | FailureInfo } | undefined
  >();
  const latest = useRef(0);
  /** The fields as the last save will show them: its own answer is not an outside change. */
  const ownSave = useRef<string | undefined>(undefined);
  const t = useT();

  const read = readSettingsFields(fields);
  const errors: SettingsErrors = read.ok ? {} : read.errors;

  // Saved values changed from elsewhere (a restore, another window) replace what the fields
  // show, unless the person is in the middle of putting a value right.
  const savedValues = JSON.stringify(fieldsOf(settings));
  useEffect(() => {
    if (savedValues === ownSave.current || useSettingsStore.getState().defaultsDraft) return;
    setFields(JSON.parse(savedValues) as SettingsFields);
  }, [savedValues]);

  async function save(card: Card, changes: Partial<Settings>) {
    const attempt = ++latest.current;
    ownSave.current = JSON.stringify(fieldsOf({ ...settings, ...changes }));
    setOutcome({ card, state: 'saving' });
    try {
      await saveSettings(changes);
      if (attempt === latest.current) setOutcome({ card, state: 'saved' });
    } catch (error) {
      if (attempt === latest.current) setOutcome({ card, state: failureOf(error) });
    }
  }

  const edit =
    (name: keyof SettingsFields, card: Card) => (event: { target: { value: string } }) => {
      const next = { ...fields, [name]: event.target.value };
      setFields(next);
      const result = readSettingsFields(next);
      const store = useSettingsStore.getState();
      if (!result.ok) {
        store.defaultsDrafted(next);
        setOutcome(undefined);
        return;
      }
      store.defaultsDrafted(undefined);
      setShown(new Set());
      const current = {
        chatDefaults: settings.chatDefaults,
        timeouts: settings.timeouts,
        attachments: settings.attachments,
        tools: settings.tools,
      };
      if (JSON.stringify(result.changes) === JSON.stringify(current)) return;
      void save(card, result.changes);
    };

  const field = (name: keyof SettingsFields) => ({
    value: fields[name],
    onChange: edit(name, CARD_OF[name]),
    onBlur: () => setShown((current) => new Set(current).add(name)),
    error: shown.has(name) ? errors[name] : undefined,
  });
  const props = Object.fromEntries(
    (Object.keys(CARD_OF) as Array<keyof SettingsFields>).map((name) => [name, field(name)]),
  ) as Record<keyof SettingsFields, ReturnType<typeof field>>;

  const status = (card: Card) =>
    outcome?.card !== card ? null : outcome.state === 'saving' || outcome.state === 'saved' ? (
      <p className="save-status" role="status">
        {outcome.state === 'saved' ? t('defaults.saved') : t('defaults.saving')}
      </p>
    ) : (
      <Notice tone="error" title={t('defaults.notSaved')}>
        <p className="failure-message">{outcome.state.message}</p>
      </Notice>
    );

  const chatStatus = status('chat');
  const requestsStatus = status('requests');

  return (
    <form
      className="settings-form"
      onSubmit={(event) => event.preventDefault()}
      noValidate
      aria-label={t('defaults.form')}
    >
      <section className="card settings-section" aria-labelledby="chat-defaults-title">
        <h2 className="card-title" id="chat-defaults-title">
          {t('defaults.chat.title')}
        </h2>
        <p className="card-lead">{t('defaults.chat.lead')}</p>
        <p className="muted small">{t('defaults.atOnce')}</p>
        <div className="field-row">
          <Field
            label={t('defaults.temperature')}
            inputMode="decimal"
            {...props.temperature}
            hint={t('defaults.temperature.hint')}
          />
          <Field
            label={t('defaults.maxTokens')}
            inputMode="numeric"
            {...props.maxTokens}
            placeholder={t('defaults.maxTokens.placeholder')}
            hint={t('defaults.maxTokens.hint')}
          />
        </div>
        <div className="field-row">
          <Field
            label={t('defaults.attachmentMb')}
            inputMode="numeric"
            {...props.attachmentMb}
            hint={t('defaults.attachmentMb.hint')}
          />
          <Field
            label={t('defaults.contextTokens')}
            inputMode="numeric"
            {...props.contextTokens}
            hint={t('defaults.contextTokens.hint')}
          />
          <Field
            label={t('defaults.imageMaxSide')}
            inputMode="numeric"
            {...props.imageMaxSide}
            hint={t('defaults.imageMaxSide.hint')}
          />
        </div>
        <div className="field-row">
          <Field
            label={t('defaults.toolTokenBudget')}
            inputMode="numeric"
            {...props.toolTokenBudget}
            hint={t('defaults.toolTokenBudget.hint')}
          />
          <Field
            label={t('defaults.toolMaxSteps')}
            inputMode="numeric"
            {...props.toolMaxSteps}
            hint={t('defaults.toolMaxSteps.hint')}
          />
        </div>
        <div className="field-row">
          <Field
            label={t('defaults.toolMaxResultChars')}
            inputMode="numeric"
            {...props.toolMaxResultChars}
            hint={t('defaults.toolMaxResultChars.hint')}
          />
        </div>
        {chatStatus}
      </section>
      <section className="card settings-section" aria-labelledby="timeouts-title">
        <h2 className="card-title" id="timeouts-title">
          {t('defaults.requests.title')}
        </h2>
        <div className="field-row">
          <Field
            label={t('defaults.requestSeconds')}
            inputMode="numeric"
            {...props.requestSeconds}
            hint={t('defaults.requestSeconds.hint')}
          />
          <Field
            label={t('defaults.idleSeconds')}
            inputMode="numeric"
            {...props.idleSeconds}
            hint={t('defaults.idleSeconds.hint')}
          />
        </div>
        {requestsStatus}
      </section>
    </form>
  );
}

/**
 * Shown only where no keychain works: the explicit choice to keep keys in a file (readable by
 * this user only, not encrypted) rather than in memory until quit. Read when the app starts.
 */
function KeyStorageChoice({ allowed }: { allowed: boolean }) {
  const [status, setStatus] = useState<KeyStorageStatus | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  // Shown at once, before main has saved it; put back if saving fails.
  const [checked, setChecked] = useState(allowed);
  const t = useT();
  const mainText = useMainMessageText();

  useEffect(() => {
    loadKeyStorage().then(setStatus, (error: unknown) => setFailure(failureOf(error)));
  }, []);

  if (!status || (status.secure && !allowed)) return null;

  async function toggle(next: boolean) {
    setFailure(undefined);
    setChecked(next);
    try {
      // Main asks the person to confirm before turning it on; cancelled, it stays off.
      const saved = await saveSettings({ allowPlaintextKeys: next });
      setChecked(saved.allowPlaintextKeys);
      // Turning it off moved the keys from the file to memory: say where they are now.
      if (!saved.allowPlaintextKeys) setStatus(await loadKeyStorage());
    } catch (error) {
      setChecked(!next);
      setFailure(failureOf(error));
    }
  }

  return (
    <section className="card settings-section" aria-labelledby="key-storage-title">
      <h2 className="card-title" id="key-storage-title">
        {t('keys.title')}
      </h2>
      {status.reason && <p className="muted">{mainText({ ...status, message: status.reason })}</p>}
      <CheckboxField checked={checked} onChange={(next) => void toggle(next)}>
        <Message id="keys.plaintext" components={{ 0: <strong /> }} />
      </CheckboxField>
      {failure && (
        <Notice tone="error" title={t('choice.notSaved')}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
    </section>
  );
}

/**
 * The support log: what it holds, and the choice to add prompts to it (off by default, and
 * anyone given the file can then read what the person wrote).
 */
function SupportLogChoice({ included }: { included: boolean }) {
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  // Shown at once, before main has saved it; put back if saving fails.
  const [checked, setChecked] = useState(included);
  const t = useT();

  async function toggle(next: boolean) {
    setFailure(undefined);
    setChecked(next);
    try {
      await saveSettings({ includePromptsInLogs: next });
    } catch (error) {
      setChecked(!next);
      setFailure(failureOf(error));
    }
  }

  return (
    <section className="card settings-section" aria-labelledby="support-log-title">
      <h2 className="card-title" id="support-log-title">
        {t('logs.title')}
      </h2>
      <p className="card-lead">
        <Message id="logs.lead" components={{ 0: <code /> }} />
      </p>
      <CheckboxField
        checked={checked}
        onChange={(next) => void toggle(next)}
        hintId="support-log-prompts-hint"
        hint={t('logs.prompts.hint')}
      >
        {t('logs.prompts')}
      </CheckboxField>
      {failure && (
        <Notice tone="error" title={t('choice.notSaved')}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
    </section>
  );
}
