import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/i18n';
import { CheckboxField } from '../../components/checkbox-field';
import { shortcutPlatform } from '../../../../electron/shared/shortcuts';
import { Notice } from '../../components/notice';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
import type { DesktopChange, DesktopStatus, Settings } from '../../lib/relay-bridge';
import { recordKeys } from './accelerator-keys';
import { changeDesktop, loadDesktopStatus } from './desktop-actions';

const DEFAULT_SHORTCUT = 'CommandOrControl+Alt+Space';

function isMac(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return shortcutPlatform(nav.userAgentData?.platform || nav.platform) === 'mac';
}

/**
 * Quick ask (its global shortcut, saving, the clipboard) and the app's place on the desktop (the
 * tray, closing to it, opening at login). Main applies each change before saving it, so a
 * shortcut the system refuses is said here and the one before stays.
 */
export function DesktopSection({ settings }: { settings: Settings }) {
  const [status, setStatus] = useState<DesktopStatus | undefined>();
  const [failure, setFailure] = useState<
    { section: 'quick' | 'desktop'; info: FailureInfo } | undefined
  >();
  const [busy, setBusy] = useState(false);
  const t = useT();
  const mainText = useMainMessageText();
  const [recording, setRecording] = useState(false);
  const recorder = useRef<HTMLButtonElement>(null);
  // A choice shows at once, before main has applied it; it goes back if main refuses it.
  const [pending, setPending] = useState<DesktopChange | undefined>();
  const quickAsk = { ...settings.quickAsk, ...pending?.quickAsk };
  const desktop = { ...settings.desktop, ...pending?.desktop };

  useEffect(() => {
    loadDesktopStatus().then(setStatus, (error: unknown) =>
      setFailure({ section: 'quick', info: failureOf(error) }),
    );
  }, []);

  useEffect(() => {
    if (recording) recorder.current?.focus();
  }, [recording]);

  async function apply(change: DesktopChange) {
    setBusy(true);
    setFailure(undefined);
    setPending(change.quickAsk?.shortcut === undefined ? change : undefined);
    try {
      setStatus(await changeDesktop(change));
    } catch (error) {
      setFailure({ section: change.quickAsk ? 'quick' : 'desktop', info: failureOf(error) });
    } finally {
      setPending(undefined);
      setBusy(false);
    }
  }

  function onRecordKey(event: KeyboardEvent<HTMLButtonElement>) {
    const recorded = recordKeys(event, isMac());
    if (recorded.kind === 'waiting') return;
    event.preventDefault();
    if (recorded.kind === 'cancel') return setRecording(false);
    if (recorded.kind === 'unknown') return;
    setRecording(false);
    void apply({ quickAsk: { shortcut: recorded.accelerator } });
  }

  const shortcut = status?.shortcut;
  return (
    <>
      <section className="card settings-section" aria-labelledby="quick-ask-title">
        <h2 className="card-title" id="quick-ask-title">
          {t('quick.title')}
        </h2>
        <p className="card-lead">{t('quick.lead')}</p>
        <CheckboxField
          checked={quickAsk.enabled}
          disabled={busy}
          onChange={(enabled) => void apply({ quickAsk: { enabled } })}
        >
          {t('quick.enabled')}
        </CheckboxField>
        <div className="quick-shortcut-row">
          <span className="field-label" id="quick-ask-shortcut-label">
            {t('quick.shortcut')}
          </span>
          {recording ? (
            <button
              ref={recorder}
              type="button"
              className="button shortcut-recorder"
              aria-describedby="quick-ask-shortcut-label"
              onKeyDown={onRecordKey}
              onBlur={() => setRecording(false)}
            >
              {t('quick.recording')}
            </button>
          ) : (
            <>
              <kbd className="shortcut-keys" aria-describedby="quick-ask-shortcut-label">
                {shortcut?.label ?? quickAsk.shortcut}
              </kbd>
              <button
                type="button"
                className="button button-small"
                disabled={busy || !quickAsk.enabled}
                onClick={() => setRecording(true)}
              >
                {t('quick.change')}
              </button>
              {quickAsk.shortcut !== DEFAULT_SHORTCUT && (
                <button
                  type="button"
                  className="button button-small"
                  disabled={busy || !quickAsk.enabled}
                  onClick={() => void apply({ quickAsk: { shortcut: DEFAULT_SHORTCUT } })}
                >
                  {t('quick.default')}
                </button>
              )}
            </>
          )}
        </div>
        {failure?.section === 'quick' && (
          <Notice tone="error" title={t('change.notMade')}>
            <p className="failure-message">{failure.info.message}</p>
          </Notice>
        )}
        {quickAsk.enabled && shortcut?.problem && (
          <Notice tone="warning" title={t('quick.shortcutBroken')}>
            <p>{mainText(shortcut.problem)}</p>
          </Notice>
        )}
        {quickAsk.enabled && shortcut?.registered && (
          <p className="muted">{t('quick.opens', { shortcut: shortcut.label })}</p>
        )}
        <CheckboxField
          checked={quickAsk.saveConversations}
          disabled={busy}
          onChange={(saveConversations) => void apply({ quickAsk: { saveConversations } })}
          hint={t('quick.save.hint')}
        >
          {t('quick.save')}
        </CheckboxField>
        <CheckboxField
          checked={quickAsk.useClipboard}
          disabled={busy}
          onChange={(useClipboard) => void apply({ quickAsk: { useClipboard } })}
          hint={t('quick.clipboard.hint')}
        >
          {t('quick.clipboard')}
        </CheckboxField>
      </section>

      <section className="card settings-section" aria-labelledby="desktop-title">
        <h2 className="card-title" id="desktop-title">
          {t('desktop.title')}
        </h2>
        <CheckboxField
          checked={desktop.showTray}
          disabled={busy}
          onChange={(showTray) => void apply({ desktop: { showTray } })}
        >
          {t('desktop.tray')}
        </CheckboxField>
        {status?.tray.problem && (
          <Notice tone="warning" title={t('desktop.noTray')}>
            <p>{mainText(status.tray.problem)}</p>
          </Notice>
        )}
        <CheckboxField
          checked={desktop.closeToTray}
          disabled={busy || !desktop.showTray}
          onChange={(closeToTray) => void apply({ desktop: { closeToTray } })}
        >
          {t('desktop.closeToTray')}
        </CheckboxField>
        <CheckboxField
          checked={desktop.openAtLogin}
          disabled={busy}
          onChange={(openAtLogin) => void apply({ desktop: { openAtLogin } })}
          hint={
            <>
              {desktop.showTray ? t('desktop.login.tray') : t('desktop.login.window')}
              {status?.openAtLogin.detail &&
                ` ${t('desktop.login.kept', { place: status.openAtLogin.detail })}`}
            </>
          }
        >
          {t('desktop.login')}
        </CheckboxField>
        {status?.openAtLogin.problem && (
          <Notice tone="warning" title={t('desktop.loginProblem')}>
            <p>{mainText(status.openAtLogin.problem)}</p>
          </Notice>
        )}
        {failure?.section === 'desktop' && (
          <Notice tone="error" title={t('change.notMade')}>
            <p className="failure-message">{failure.info.message}</p>
          </Notice>
        )}
      </section>
    </>
  );
}
