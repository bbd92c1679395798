import { ReadFailure } from '../../components/read-failure';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
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
  const t = useT();

  return (
    <div className="page">
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
        <>
          <ThemeChoice theme={settings.theme} language={settings.language} />
          <DefaultsForm settings={settings} />
          <DesktopSection settings={settings} />
          <NetworkSection settings={settings} testUrl={testUrl} />
          <UpdatesSection settings={settings} />
          {children}
          <KeyStorageChoice allowed={settings.allowPlaintextKeys} />
          <SupportLogChoice included={settings.includePromptsInLogs} />
        </>
      )}
    </div>
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

function DefaultsForm({ settings }: { settings: Settings }) {
  const [fields, setFields] = useState<SettingsFields>(() => fieldsOf(settings));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<'saved' | FailureInfo | undefined>();
  const t = useT();

  // Saved values that change (not the theme alone) replace what the fields show.
  const savedValues = JSON.stringify(fieldsOf(settings));
  useEffect(() => {
    setFields(JSON.parse(savedValues) as SettingsFields);
  }, [savedValues]);

  const edit = (name: keyof SettingsFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [name]: event.target.value }));
    setOutcome(undefined);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const read = readSettingsFields(fields);
    if (!read.ok) {
      setErrors(read.errors);
      setOutcome(undefined);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveSettings(read.changes);
      setOutcome('saved');
    } catch (error) {
      setOutcome(failureOf(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="settings-form" onSubmit={save} noValidate aria-label={t('defaults.form')}>
      <section className="card settings-section" aria-labelledby="chat-defaults-title">
        <h2 className="card-title" id="chat-defaults-title">
          {t('defaults.chat.title')}
        </h2>
        <p className="card-lead">{t('defaults.chat.lead')}</p>
        <div className="field-row">
          <Field
            label={t('defaults.temperature')}
            inputMode="decimal"
            value={fields.temperature}
            onChange={edit('temperature')}
            error={errors.temperature}
            hint={t('defaults.temperature.hint')}
          />
          <Field
            label={t('defaults.maxTokens')}
            inputMode="numeric"
            value={fields.maxTokens}
            onChange={edit('maxTokens')}
            error={errors.maxTokens}
            placeholder={t('defaults.maxTokens.placeholder')}
            hint={t('defaults.maxTokens.hint')}
          />
        </div>
        <div className="field-row">
          <Field
            label={t('defaults.attachmentMb')}
            inputMode="numeric"
            value={fields.attachmentMb}
            onChange={edit('attachmentMb')}
            error={errors.attachmentMb}
            hint={t('defaults.attachmentMb.hint')}
          />
          <Field
            label={t('defaults.contextTokens')}
            inputMode="numeric"
            value={fields.contextTokens}
            onChange={edit('contextTokens')}
            error={errors.contextTokens}
            hint={t('defaults.contextTokens.hint')}
          />
          <Field
            label={t('defaults.imageMaxSide')}
            inputMode="numeric"
            value={fields.imageMaxSide}
            onChange={edit('imageMaxSide')}
            error={errors.imageMaxSide}
            hint={t('defaults.imageMaxSide.hint')}
          />
        </div>
        <div className="field-row">
          <Field
            label={t('defaults.toolTokenBudget')}
            inputMode="numeric"
            value={fields.toolTokenBudget}
            onChange={edit('toolTokenBudget')}
            error={errors.toolTokenBudget}
            hint={t('defaults.toolTokenBudget.hint')}
          />
          <Field
            label={t('defaults.toolMaxSteps')}
            inputMode="numeric"
            value={fields.toolMaxSteps}
            onChange={edit('toolMaxSteps')}
            error={errors.toolMaxSteps}
            hint={t('defaults.toolMaxSteps.hint')}
          />
        </div>
      </section>
      <section className="card settings-section" aria-labelledby="timeouts-title">
        <h2 className="card-title" id="timeouts-title">
          {t('defaults.requests.title')}
        </h2>
        <div className="field-row">
          <Field
            label={t('defaults.requestSeconds')}
            inputMode="numeric"
            value={fields.requestSeconds}
            onChange={edit('requestSeconds')}
            error={errors.requestSeconds}
            hint={t('defaults.requestSeconds.hint')}
          />
          <Field
            label={t('defaults.idleSeconds')}
            inputMode="numeric"
            value={fields.idleSeconds}
            onChange={edit('idleSeconds')}
            error={errors.idleSeconds}
            hint={t('defaults.idleSeconds.hint')}
          />
        </div>
      </section>
      <div className="form-actions">
        {outcome === 'saved' && (
          <span className="save-status" role="status">
            {t('defaults.saved')}
          </span>
        )}
        {outcome && outcome !== 'saved' && (
          <Notice tone="error" title={t('defaults.notSaved')}>
            <p className="failure-message">{outcome.message}</p>
          </Notice>
        )}
        <span className="form-actions-spacer" />
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? t('defaults.saving') : t('defaults.save')}
        </button>
      </div>
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
