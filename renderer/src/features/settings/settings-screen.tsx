import { ReadFailure } from '../../components/read-failure';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { CheckboxField } from '../../components/checkbox-field';
import { Field } from '../../components/field';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { KeyStorageStatus, Settings, Theme } from '../../lib/relay-bridge';
import { DesktopSection } from './desktop-section';
import { NetworkSection } from './network-section';
import { chooseTheme, loadKeyStorage, loadSettings, saveSettings } from './settings-actions';
import {
  fieldsOf,
  readSettingsFields,
  type SettingsErrors,
  type SettingsFields,
} from './settings-form';
import { useSettingsStore } from './settings-store';
import { UpdatesSection } from './updates-section';

const THEMES: { value: Theme; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follows your desktop' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
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

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Settings</h1>
          <p className="page-lead">
            How the app looks, what new chats and requests start with, and how it fits your desktop
            and network.
          </p>
        </div>
      </header>
      {status === 'loading' && !settings ? (
        <p className="muted">
          <Spinner label="Loading settings" /> Loading settings…
        </p>
      ) : !settings ? (
        <ReadFailure
          title="The settings could not be read"
          message={failure?.message}
          onRetry={() => void loadSettings()}
        />
      ) : (
        <>
          <ThemeChoice theme={settings.theme} />
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

function ThemeChoice({ theme }: { theme: Theme }) {
  const [failure, setFailure] = useState<FailureInfo | undefined>();

  async function choose(next: Theme) {
    setFailure(undefined);
    try {
      await chooseTheme(next);
    } catch (error) {
      setFailure(failureOf(error));
    }
  }

  return (
    <section className="card settings-section" aria-labelledby="appearance-title">
      <h2 className="card-title" id="appearance-title">
        Appearance
      </h2>
      <fieldset className="theme-choice">
        <legend className="field-label">Theme</legend>
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
                <span className="theme-option-label">{option.label}</span>
                <span className="theme-option-hint">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {failure && (
        <Notice tone="error" title="The theme was not saved">
          <p className="failure-message">{failure.message}</p>
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
    <form className="settings-form" onSubmit={save} noValidate aria-label="Defaults">
      <section className="card settings-section" aria-labelledby="chat-defaults-title">
        <h2 className="card-title" id="chat-defaults-title">
          Chat defaults
        </h2>
        <p className="card-lead">What a new chat starts with; each chat can change them.</p>
        <div className="field-row">
          <Field
            label="Temperature"
            inputMode="decimal"
            value={fields.temperature}
            onChange={edit('temperature')}
            error={errors.temperature}
            hint="From 0 (focused) to 2 (varied). Default 1."
          />
          <Field
            label="Max tokens"
            inputMode="numeric"
            value={fields.maxTokens}
            onChange={edit('maxTokens')}
            error={errors.maxTokens}
            placeholder="No limit"
            hint="Longest reply, in tokens. Empty for no limit."
          />
        </div>
        <div className="field-row">
          <Field
            label="Largest attachment (MB)"
            inputMode="numeric"
            value={fields.attachmentMb}
            onChange={edit('attachmentMb')}
            error={errors.attachmentMb}
            hint="A bigger file is not attached. 1 to 50."
          />
          <Field
            label="Model context (tokens)"
            inputMode="numeric"
            value={fields.contextTokens}
            onChange={edit('contextTokens')}
            error={errors.contextTokens}
            hint="A message with its files over this is not sent."
          />
          <Field
            label="Image size (longest side, px)"
            inputMode="numeric"
            value={fields.imageMaxSide}
            onChange={edit('imageMaxSide')}
            error={errors.imageMaxSide}
            hint="Attached images are scaled down to this. 256 to 4096."
          />
        </div>
      </section>
      <section className="card settings-section" aria-labelledby="timeouts-title">
        <h2 className="card-title" id="timeouts-title">
          Requests
        </h2>
        <div className="field-row">
          <Field
            label="Request timeout (seconds)"
            inputMode="numeric"
            value={fields.requestSeconds}
            onChange={edit('requestSeconds')}
            error={errors.requestSeconds}
            hint="How long to wait for a relay to start answering."
          />
          <Field
            label="Idle timeout (seconds)"
            inputMode="numeric"
            value={fields.idleSeconds}
            onChange={edit('idleSeconds')}
            error={errors.idleSeconds}
            hint="How long a reply may pause before it is given up."
          />
        </div>
      </section>
      <div className="form-actions">
        {outcome === 'saved' && (
          <span className="save-status" role="status">
            Saved
          </span>
        )}
        {outcome && outcome !== 'saved' && (
          <Notice tone="error" title="The settings were not saved">
            <p className="failure-message">{outcome.message}</p>
          </Notice>
        )}
        <span className="form-actions-spacer" />
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
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
        Where keys are kept
      </h2>
      {status.reason && <p className="muted">{status.reason}</p>}
      <CheckboxField checked={checked} onChange={(next) => void toggle(next)}>
        Keep keys in a file on this computer instead, so they are still there after a restart. The
        file is readable only by your user account but is <strong>not encrypted</strong>. Turning
        this on takes effect the next time the app starts; turning it off deletes the file at once.
      </CheckboxField>
      {failure && (
        <Notice tone="error" title="The choice was not saved">
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
        Logs for support
      </h2>
      <p className="card-lead">
        The app keeps a log of what it did (requests with their outcome and timing, retries, errors)
        in the <code>logs</code> folder of its data folder; Help → Open logs folder shows it. API
        keys are never written to it.
      </p>
      <CheckboxField
        checked={checked}
        onChange={(next) => void toggle(next)}
        hintId="support-log-prompts-hint"
        hint={
          <>
            Also writes your messages, embedding inputs, image prompts and the replies into the log,
            so someone helping you can see exactly what was sent. Anyone you give the log file to
            can read them: leave this off unless you are asked to turn it on.
          </>
        }
      >
        Include prompts in logs
      </CheckboxField>
      {failure && (
        <Notice tone="error" title="The choice was not saved">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
    </section>
  );
}
