/**
 * A stand-in for `window.relay` in the renderer's unit tests, shaped as the preload exposes it:
 * each fake route's answer resolves as data (`{ ok: true, value }`), and a fake that throws
 * resolves as `{ ok: false, error }` with the thrown error's fields, so the page's own module
 * (`renderer/src/lib/relay-bridge.ts`) unwraps it as it unwraps the app's.
 */
export function exposedBridge<T extends object>(fakes: T): T {
  const exposed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fakes)) {
    if (typeof value !== 'function' || /^on[A-Z]/.test(name)) {
      exposed[name] = value;
      continue;
    }
    exposed[name] = async (...args: unknown[]) => {
      try {
        return { ok: true, value: await (value as (...a: unknown[]) => unknown)(...args) };
      } catch (error) {
        const { kind, message, ...fields } = error as Record<string, unknown>;
        return {
          ok: false,
          error: {
            ...fields,
            kind: typeof kind === 'string' ? kind : 'internal',
            message: typeof message === 'string' ? message : String(error),
          },
        };
      }
    };
  }
  return exposed as T;
}
