/** Chromium trace helpers for the benchmarks' diagnostics: long main-thread tasks, attributed. */
import type { CDPSession } from 'playwright-core';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink',
  '__metadata',
];

export async function startTrace(
  cdp: CDPSession,
  categories: string[] = CATEGORIES,
): Promise<() => Promise<TraceEvent[]>> {
  const events: TraceEvent[] = [];
  const onData = (data: { value: object[] }) => {
    events.push(...(data.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories, enableSampling: false },
    transferMode: 'ReportEvents',
  });
  return async () => {
    const done = new Promise<void>((resolve) =>
      cdp.once('Tracing.tracingComplete', () => resolve()),
    );
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', onData);
    return events;
  };
}

/** One line per task over `overMs` on the renderer main thread: wall, CPU, top children. */
export function attributeLongTasks(
  events: TraceEvent[],
  overMs: number,
  by: 'dur' | 'tdur' = 'dur',
): string[] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e[by] ?? 0) > overMs * 1000);
  const lines: string[] = [];
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const inside = onMain.filter(
      (e) => e !== task && e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end,
    );
    const byName = new Map<string, { wall: number; cpu: number }>();
    for (const e of inside) {
      const data = e.args?.data ?? {};
      const what =
        e.name === 'FunctionCall'
          ? `FunctionCall ${String(data.functionName ?? '')}@${String(data.url ?? '')
              .split('/')
              .pop()}:${String(data.lineNumber ?? '')}`
          : e.name;
      const entry = byName.get(what) ?? { wall: 0, cpu: 0 };
      entry.wall += (e.dur ?? 0) / 1000;
      entry.cpu += (e.tdur ?? 0) / 1000;
      byName.set(what, entry);
    }
    const top = [...byName.entries()]
      .sort((a, b) => b[1].wall - a[1].wall)
      .slice(0, 8)
      .map(([n, t]) => `${n} ${t.wall.toFixed(0)}/${t.cpu.toFixed(0)}`)
      .join('; ');
    lines.push(
      `task wall ${(task.dur! / 1000).toFixed(0)} ms, cpu ${((task.tdur ?? 0) / 1000).toFixed(0)} ms :: ${top}`,
    );
  }
  return lines;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Where the samples inside long tasks fall: self time by function, and inclusive time by function
 * (each function counted once per sample), over all tasks longer than `overMs`.
 */
export function profileLongTasks(
  events: TraceEvent[],
  profile: CpuProfile,
  overMs: number,
  by: 'dur' | 'tdur' = 'dur',
): string[] {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const windows = events
    .filter(
      (e) =>
        main &&
        e.pid === main.pid &&
        e.tid === main.tid &&
        e.name === 'RunTask' &&
        (e[by] ?? 0) > overMs * 1000,
    )
    .map((e) => [e.ts, e.ts + e.dur!] as const);
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anon)'}@${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let time = profile.startTime;
  let inside = 0;
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    time += profile.timeDeltas?.[i] ?? 0;
    const dt = profile.timeDeltas?.[i + 1] ?? 0;
    if (!windows.some(([a, b]) => time >= a && time <= b)) continue;
    inside += dt;
    let node = byId.get(samples[i]!);
    if (!node) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    const seen = new Set<string>();
    while (node) {
      const name = label(node);
      if (!seen.has(name)) {
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + dt);
      }
      const up = parent.get(node.id);
      node = up === undefined ? undefined : byId.get(up);
    }
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${(v / 1000).toFixed(0)} ms ${k}`);
  return [
    `profile: ${(inside / 1000).toFixed(0)} ms of samples inside long tasks`,
    'self:',
    ...top(self, 20),
    'inclusive:',
    ...top(total, 45),
  ];
}

/** What a trace for counting long tasks needs, and nothing more (cheap to record). */
export const TASK_CATEGORIES = ['disabled-by-default-devtools.timeline', '__metadata'];

/**
 * Every task on a renderer's main thread: its wall time and its CPU time (thread time), in ms.
 * The CPU time is what the page's own code cost; the wall time adds any time the thread waited
 * for a core, which on a shared machine can be most of it.
 */
export function mainThreadTasks(events: TraceEvent[]): { wallMs: number; cpuMs: number }[] {
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events.filter(
    (e) => e.name === 'RunTask' && e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`),
  );
  if (tasks.length === 0 || tasks.every((e) => e.tdur === undefined)) {
    throw new Error('The trace holds no main-thread tasks with their CPU time: cannot measure');
  }
  return tasks.map((e) => ({ wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
}

/**
 * The renderer main thread's CPU time by trace event, exclusive of the events nested in it (a
 * layout forced inside a script counts as layout, not script): the top `count`, in ms.
 */
export function cpuByEvent(events: TraceEvent[], count = 12): Array<[string, number]> {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events
    .filter(
      (e) =>
        main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.tdur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const exclusive = new Map<string, number>();
  const stack: Array<{ end: number; name: string; own: number }> = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack.at(-1)!.end <= until) {
      const done = stack.pop()!;
      exclusive.set(done.name, (exclusive.get(done.name) ?? 0) + done.own);
    }
  };
  for (const event of onMain) {
    close(event.ts);
    const tdur = event.tdur ?? 0;
    const parent = stack.at(-1);
    if (parent) parent.own -= tdur;
    stack.push({ end: event.ts + (event.dur ?? 0), name: event.name, own: tdur });
  }
  close(Number.POSITIVE_INFINITY);
  return [...exclusive.entries()]
    .map(([name, us]): [string, number] => [name, us / 1000])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}
