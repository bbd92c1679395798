import type { AnsweredBridge, Bridge } from '../../../electron/shared/ipc/bridge';
import type { Events, Routes } from '../../../electron/shared/ipc/contract';
import type { IpcResult } from '../../../electron/shared/ipc/define';
import { unwrapBridge } from './bridge-error';

/** A drop's files, in order: a grant main gave for each one on disk, null for the rest. */
type DropGrants = Array<string | null>;

/**
 * What the preload adds to the contract's functions, as it exposes them (`Answer` is how a
 * function that answers resolves: as data there, unwrapped for the page).
 */
interface PreloadExtras<Answer extends 'data' | 'page'> {
  readonly appVersion: string;
  /**
   * Hands main the files dropped on the page and answers a grant for each (null for one that is
   * not a file on disk): the preload reads their paths with Electron's `webUtils.getPathForFile`
   * and the page never sees them. Absent outside Electron.
   */
  readonly grantDroppedFiles?: (
    files: readonly File[],
    purpose: 'attach' | 'knowledge',
  ) => Promise<Answer extends 'data' ? IpcResult<DropGrants> : DropGrants>;
}

/**
 * `window.relay` as the preload exposes it: one named function per route, resolving with the
 * router's answer as data (`{ ok, value }` or `{ ok: false, error }`), one `on…` subscriber per
 * event, and the app's version. Only this module reads it.
 */
export type ExposedBridge = Bridge<Routes, Events> & PreloadExtras<'data'>;

/**
 * The bridge as the page calls it: a route's function resolves with its value and rejects with
 * a `BridgeError` (`lib/bridge-error.ts`), made in the page's world from the failure the preload
 * resolved with; the subscribers and the rest as exposed.
 *
 * Undefined when the page runs outside the app (a plain browser, a component test).
 */
export type RelayBridge = AnsweredBridge<Routes, Events> & PreloadExtras<'page'>;

let unwrapped: { exposed: ExposedBridge; bridge: RelayBridge } | undefined;

export function relayBridge(): RelayBridge | undefined {
  const exposed = (window as Window & { relay?: ExposedBridge }).relay;
  if (!exposed) return undefined;
  if (unwrapped?.exposed !== exposed) {
    unwrapped = { exposed, bridge: unwrapBridge<RelayBridge>(exposed) };
  }
  return unwrapped.bridge;
}

/** The bridge, or an error a screen can show when the page runs outside the app. */
export function requireBridge(): RelayBridge {
  const bridge = relayBridge();
  if (!bridge) {
    throw Object.assign(new Error('This page is not running inside Relay Desktop.'), {
      kind: 'internal',
    });
  }
  return bridge;
}

/** What a route of the bridge resolves to: `Answer<'listModels'>`. */
export type Answer<Name extends keyof Routes> = Awaited<ReturnType<RelayBridge[Name]>>;

/** A saved connection as main describes it: whether a key is saved and its last four characters, never the key. */
export type ConnectionSummary = Answer<'createConnection'>;
export type ConnectionTestResult = Answer<'testConnection'>;
export type KeyStorageStatus = Answer<'getKeyStorageStatus'>;
export type ConnectionHealth = Answer<'getConnectionHealth'>[number];
export type ModelList = Answer<'listModels'>;
export type RelayModel = ModelList['models'][number];
export type ModelKind = RelayModel['kind'];
export type PriceList = Answer<'listPrices'>;
export type ModelPrice = PriceList['prices'][string];
export type ConversationCost = Answer<'getConversationCost'>;
export type UsageReport = Answer<'getUsage'>;
export type Settings = Answer<'getSettings'>;
export type Theme = Settings['theme'];
export type Feature = Parameters<RelayBridge['setLastModel']>[0]['feature'];
export type ConnectionHeader = ConnectionSummary['headers'][number];
export type QuickAskState = Answer<'getQuickAsk'>;
export type QuickAnswer = Answer<'askQuick'>;
export type DesktopStatus = Answer<'getDesktopStatus'>;
export type DesktopChange = Parameters<RelayBridge['updateDesktop']>[0];
export type ConnectLink = NonNullable<Answer<'takeConnectLink'>>;
export type UpdateStatus = Answer<'getUpdateStatus'>;
export type UpdateSettings = Settings['updates'];
export type ProxySettings = Settings['proxy'];
export type ProxyTestResult = Answer<'testProxy'>;
