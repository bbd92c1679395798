/**
 * Captures what a section writes to the console and to stdout/stderr (where the app's log lines go
 * when there is no log file), so the canary sweep can search it.
 */
export interface Capture {
  text(): string;
  stop(): void;
}

export function captureOutput(): Capture {
  const chunks: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const originals = methods.map((m) => console[m]);
  for (const m of methods) {
    const original = console[m];
    console[m] = (...args: unknown[]) => {
      chunks.push(args.map((a) => (typeof a === 'string' ? a : safeString(a))).join(' '));
      original.apply(console, args as []);
    };
  }
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(String(chunk));
    return (out as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    chunks.push(String(chunk));
    return (err as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  return {
    text: () => chunks.join('\n'),
    stop() {
      methods.forEach((m, i) => (console[m] = originals[i] as (typeof console)[typeof m]));
      process.stdout.write = out;
      process.stderr.write = err;
    },
  };
}

function safeString(value: unknown): string {
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
