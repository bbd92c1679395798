/**
 * Toasts: transient outcomes (exported, copied, saved) said briefly in a corner and gone by
 * themselves. Problems that need the person stay on their screen as notices instead.
 *
 * Any feature calls `showToast`; the shell shows them (components/toast-region.tsx).
 */
import { create } from 'zustand';
import { t } from '../i18n/i18n';
import { failureOf } from './errors';
import { requireBridge } from './relay-bridge';

export interface ToastAction {
  label: string;
  run(): void;
}

export interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'info' | 'error';
  action?: ToastAction | undefined;
}

/**
 * How long a toast stays: longer when it offers an action (an Undo, "Show in folder"), so there
 * is time to take it, yet gone in seconds. It waits while the pointer or the focus is on it.
 */
export const TOAST_MS = 5000;
export const TOAST_WITH_ACTION_MS = 8000;
/** At most this many at once; a newer one pushes out the oldest. */
const MAX_TOASTS = 3;

interface ToastState {
  toasts: Toast[];
  /** Counts the asks to take the keyboard to the newest toast (F6): the region follows it. */
  focusAsks: number;
  shown(toast: Toast): void;
  dismissed(id: number): void;
  focusAsked(): void;
}

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  focusAsks: 0,
  shown: (toast) => set((state) => ({ toasts: [...state.toasts, toast].slice(-MAX_TOASTS) })),
  dismissed: (id) => set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) })),
  focusAsked: () => set((state) => ({ focusAsks: state.focusAsks + 1 })),
}));

/** Takes the keyboard to the newest toast's action (the "Go to the latest notice" command). */
export function focusNewestToast(): void {
  useToastStore.getState().focusAsked();
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function schedule(id: number, ms: number): void {
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => {
      timers.delete(id);
      useToastStore.getState().dismissed(id);
    }, ms),
  );
}

/** Shows a toast that closes itself; returns its id. */
export function showToast(
  text: string,
  options: { tone?: Toast['tone']; action?: ToastAction } = {},
): number {
  const id = nextId++;
  useToastStore
    .getState()
    .shown({ id, text, tone: options.tone ?? 'success', action: options.action });
  schedule(id, options.action ? TOAST_WITH_ACTION_MS : TOAST_MS);
  return id;
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  useToastStore.getState().dismissed(id);
}

/** Keeps a toast while the pointer or focus is on it, and restarts its time when they leave. */
export function holdToast(id: number, held: boolean): void {
  if (held) {
    clearTimeout(timers.get(id));
    timers.delete(id);
  } else {
    const toast = useToastStore.getState().toasts.find((shown) => shown.id === id);
    if (toast) schedule(id, toast.action ? TOAST_WITH_ACTION_MS : TOAST_MS);
  }
}

/**
 * A toast for a file just saved, with "Show in folder", by the `savedId` the save answered with
 * (main shows only files it saved in this session, and the page never names a path). Nothing is
 * shown when the save was cancelled (`savedId` absent).
 */
export function showSavedToast(text: string, savedId: string | undefined): void {
  if (savedId === undefined) return;
  showToast(text, {
    action: {
      label: t('toast.showInFolder'),
      run: () => {
        void requireBridge()
          .showSavedFile({ id: savedId })
          .catch((error: unknown) => showToast(failureOf(error).message, { tone: 'error' }));
      },
    },
  });
}
