/** The tray menu: what it offers and what each item does, as plain data. */
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { trayMenuTemplate, type TrayMenuOptions } from '../../../electron/main/windows/tray-menu';

function options(overrides: Partial<TrayMenuOptions> = {}) {
  const calls: string[] = [];
  const base: TrayMenuOptions = {
    windowVisible: true,
    quickAskKeys: 'Ctrl+Alt+Space',
    connections: [
      { id: 'a', name: 'Work', active: false, isDemo: false },
      { id: 'd', name: 'Demo relay', active: true, isDemo: true },
    ],
    newChat: () => calls.push('newChat'),
    quickAsk: () => calls.push('quickAsk'),
    toggleWindow: () => calls.push('toggleWindow'),
    selectConnection: (id) => calls.push(`select:${id}`),
    quit: () => calls.push('quit'),
    ...overrides,
  };
  return { base, calls };
}

function click(items: MenuItemConstructorOptions[], id: string): void {
  const all = items.flatMap((item) => [
    item,
    ...((item.submenu as MenuItemConstructorOptions[]) ?? []),
  ]);
  const item = all.find((candidate) => candidate.id === id);
  (item?.click as () => void)();
}

describe('the tray menu', () => {
  it('offers New chat, Quick ask, Show/Hide, the connection in use and Quit', () => {
    const { base } = options();
    const items = trayMenuTemplate(base);
    expect(items.map((item) => item.label ?? item.type)).toEqual([
      'New chat',
      'Quick ask (Ctrl+Alt+Space)',
      'Hide Relay Desktop',
      'separator',
      'Connection: Demo relay (demo)',
      'separator',
      'Quit Relay Desktop',
    ]);
    const connections = items[4]?.submenu as MenuItemConstructorOptions[];
    expect(connections.map((c) => [c.label, c.type, c.checked])).toEqual([
      ['Work', 'radio', false],
      ['Demo relay (demo)', 'radio', true],
    ]);
  });

  it('runs what each item says', () => {
    const { base, calls } = options();
    const items = trayMenuTemplate(base);
    for (const id of ['newChat', 'quickAsk', 'toggleWindow', 'connection:a', 'quit'])
      click(items, id);
    expect(calls).toEqual(['newChat', 'quickAsk', 'toggleWindow', 'select:a', 'quit']);
  });

  it('says Show when the window is hidden, and no keys when quick ask is off', () => {
    const { base } = options({ windowVisible: false, quickAskKeys: undefined });
    const labels = trayMenuTemplate(base).map((item) => item.label);
    expect(labels).toContain('Show Relay Desktop');
    expect(labels).toContain('Quick ask');
  });

  it('says so when there is no connection yet', () => {
    const { base } = options({ connections: [] });
    const item = trayMenuTemplate(base).find((i) => i.id === 'connection');
    expect(item).toMatchObject({ label: 'No connection yet', enabled: false });
  });
});
