import { existsSync, readFileSync } from 'node:fs';
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
}

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
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.win?.target).toEqual(['nsis']);
  });

  it('points at icons that exist', () => {
    expect(config.directories?.buildResources).toBe('resources');
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(icon).toBeDefined();
      expect(existsSync(join(repoRoot, icon ?? ''))).toBe(true);
    }
  });
});
