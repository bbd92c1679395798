import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = join(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);

/** electron-builder's own JSON schema (draft-07), as shipped with the installed version. */
function builderSchemaValidator() {
  const schema: unknown = JSON.parse(
    readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8'),
  );
  // Same leniency as electron-builder's validator (strict: false) but without its type coercion,
  // so a quoted "true" where a boolean belongs is caught here.
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The schema marks hook options with a custom `typeof: "function"`: YAML cannot express those.
  ajv.addKeyword({
    keyword: 'typeof',
    schemaType: 'string',
    validate: (type: string, data: unknown) => typeof data === type,
  });
  return ajv.compile(schema as object);
}

interface BuilderConfig {
  appId?: string;
  productName?: string;
  asar?: boolean;
  files?: string[];
  directories?: { buildResources?: string };
  linux?: { target?: unknown[]; icon?: string };
  mac?: { target?: { target: string; arch: string[] }[]; icon?: string };
  win?: { target?: unknown[]; icon?: string };
  electronFuses?: Record<string, unknown>;
  extraMetadata?: { author?: { name?: string; email?: string }; homepage?: string };
  extraResources?: { from: string; to: string; filter?: string[] }[];
  protocols?: { name: string; schemes: string[] }[];
  publish?: { provider: string; url?: string }[];
  generateUpdatesFilesForAllChannels?: boolean;
}

/**
 * The fuses a release ships with. Weakening one (or dropping it, which leaves Electron's default,
 * the weak side for most) must fail this test, not pass unnoticed.
 */
const RELEASE_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  onlyLoadAppFromAsar: true,
  enableEmbeddedAsarIntegrityValidation: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
  loadBrowserProcessSpecificV8Snapshot: false,
};

describe('electron-builder.yml', () => {
  const validate = builderSchemaValidator();
  const config = parse(
    readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8'),
  ) as BuilderConfig;

  it('matches the schema of the installed electron-builder', () => {
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('is checked for real: the validator refuses an unknown option and a wrong type', () => {
    expect(validate({ ...config, notAnOption: 1 })).toBe(false);
    expect(validate({ ...config, asar: 'true' })).toBe(false);
  });

  it('packs the built app under the right identity, inside an asar archive', () => {
    expect(config.appId).toBe('dev.relaydesktop.app');
    expect(config.productName).toBe('Relay Desktop');
    expect(config.asar).toBe(true);
    expect(config.files).toContain('out/**/*');
  });

  it('builds installers for the three desktop systems', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      // What electron-updater updates a Mac app from.
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('flips every release fuse to its safe side', () => {
    expect(config.electronFuses).toEqual({ ...RELEASE_FUSES, resetAdHocDarwinSignature: true });
  });

  it('sets every fuse of the wire that the installed @electron/fuses knows', async () => {
    // app-builder-lib resolves its own @electron/fuses, so ask for that copy.
    const fusesPath = createRequire(require.resolve('app-builder-lib/package.json')).resolve(
      '@electron/fuses',
    );
    const { FuseV1Options } = (await import(fusesPath)) as {
      FuseV1Options: Record<string, string | number>;
    };
    const wire = Object.keys(FuseV1Options)
      .filter((name) => Number.isNaN(Number(name)))
      .map((name) => name.charAt(0).toLowerCase() + name.slice(1));
    expect(wire.length).toBeGreaterThanOrEqual(8);
    const set = Object.keys(config.electronFuses ?? {}).filter(
      (name) => name !== 'resetAdHocDarwinSignature',
    );
    expect(set.sort()).toEqual(wire.sort());
  });

  it('names a deb maintainer e-mail and homepage (placeholders until the first release)', () => {
    expect(config.extraMetadata?.author?.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(config.extraMetadata?.homepage).toMatch(/^https:\/\//);
  });

  it('publishes updates to a generic address given at build time, for every channel', () => {
    expect(config.publish).toEqual([{ provider: 'generic', url: '${env.RELAY_UPDATE_URL}' }]);
    expect(config.generateUpdatesFilesForAllChannels).toBe(true);
  });

  it('declares the relay-desktop:// links and ships the tray images and the sample documents beside the archive', () => {
    expect(config.protocols).toEqual([{ name: 'Relay Desktop link', schemes: ['relay-desktop'] }]);
    expect(config.extraResources).toEqual([
      { from: 'resources/tray', to: 'tray', filter: ['*.png'] },
      { from: 'resources/knowledge-samples', to: 'knowledge-samples', filter: ['*.md', '*.txt'] },
    ]);
    // The demo knowledge base's documents: a few short text files, nothing else.
    const samples = readdirSync(join(repoRoot, 'resources/knowledge-samples'));
    expect(samples.length).toBeGreaterThanOrEqual(3);
    for (const name of samples) {
      expect(name).toMatch(/\.(md|txt)$/);
      expect(statSync(join(repoRoot, 'resources/knowledge-samples', name)).size).toBeLessThan(4096);
    }
  });

  it('points at icons that exist', () => {
    expect(config.directories?.buildResources).toBe('resources');
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(icon).toBeDefined();
      expect(existsSync(join(repoRoot, icon ?? ''))).toBe(true);
    }
  });
});
