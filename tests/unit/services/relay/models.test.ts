import { describe, expect, it } from 'vitest';
import {
  acceptsImagesFromHints,
  classifyModel,
  readModelList,
} from '../../../../electron/main/services/relay/models';

describe('classifyModel', () => {
  it.each([
    ['text-embedding-3-small', 'embedding'],
    ['bge-m3-embed', 'embedding'],
    ['nomic-embed-text:latest', 'embedding'],
    ['dall-e-3', 'image'],
    ['gpt-image-1', 'image'],
    ['black-forest-labs/FLUX.1-schnell', 'image'],
    ['stable-diffusion-xl', 'image'],
    ['sdxl-turbo', 'image'],
    ['imagen-4', 'image'],
    ['midjourney-v7', 'image'],
    ['gpt-4o-mini', 'chat'],
    ['llama3.1:8b', 'chat'],
  ])('classifies %s by its id as %s', (id, kind) => {
    expect(classifyModel({ id })).toEqual({ kind, kindSource: 'id' });
  });

  it('trusts explicit hints over the id', () => {
    expect(
      classifyModel({ id: 'my-model', supported_endpoint_types: ['openai', 'image-generation'] }),
    ).toEqual({ kind: 'image', kindSource: 'hint' });
    expect(
      classifyModel({ id: 'painter', architecture: { output_modalities: ['image', 'text'] } }).kind,
    ).toBe('image');
    expect(
      classifyModel({ id: 'embedder-image-aware', architecture: { output_modalities: ['text'] } })
        .kind,
    ).toBe('chat');
    expect(classifyModel({ id: 'x', mode: 'embedding' }).kind).toBe('embedding');
    expect(classifyModel({ id: 'x', mode: 'image_generation' }).kind).toBe('image');
    expect(classifyModel({ id: 'x', type: 'embeddings' }).kind).toBe('embedding');
    expect(classifyModel({ id: 'image-captioner', type: 'vlm' }).kind).toBe('chat');
    expect(classifyModel({ id: 'x', capabilities: ['completion', 'vision'] }).kind).toBe('chat');
    expect(classifyModel({ id: 'x', capabilities: { embeddings: true } }).kind).toBe('embedding');
  });

  it('falls back to the id when the hints say nothing it knows', () => {
    expect(
      classifyModel({ id: 'text-embedding-ada', supported_endpoint_types: ['anthropic'] }),
    ).toEqual({ kind: 'embedding', kindSource: 'id' });
    expect(classifyModel({ id: 'x', type: 'model' })).toEqual({ kind: 'chat', kindSource: 'id' });
  });

  it("lets the person's override win over everything", () => {
    expect(classifyModel({ id: 'dall-e-3', mode: 'image_generation' }, 'chat')).toEqual({
      kind: 'chat',
      kindSource: 'override',
    });
  });
});

describe('readModelList', () => {
  it('reads the canonical list with owners, keeping the raw record', () => {
    const raw = {
      id: 'demo-chat',
      object: 'model',
      created: 1,
      owned_by: 'relay',
      extra: { deep: true },
    };
    const models = readModelList({ object: 'list', data: [raw] });
    expect(models).toEqual([
      { id: 'demo-chat', kind: 'chat', kindSource: 'id', ownedBy: 'relay', raw },
    ]);
  });

  it('tolerates a bare data list, a bare array, junk entries and duplicates', () => {
    expect(readModelList({ data: [{ id: 'a' }] })?.map((m) => m.id)).toEqual(['a']);
    expect(
      readModelList([
        { id: 'a' },
        null,
        7,
        { name: 'no id' },
        { id: '' },
        { id: 'a' },
        { id: 'b-embed' },
      ])?.map((m) => [m.id, m.kind]),
    ).toEqual([
      ['a', 'chat'],
      ['b-embed', 'embedding'],
    ]);
  });

  it('applies overrides by id, ignoring inherited keys', () => {
    const models = readModelList(
      { data: [{ id: 'gpt-4o' }, { id: 'constructor' }] },
      { 'gpt-4o': 'image' },
    );
    expect(models?.map((m) => [m.id, m.kind, m.kindSource])).toEqual([
      ['gpt-4o', 'image', 'override'],
      ['constructor', 'chat', 'id'],
    ]);
  });

  it('returns undefined when there is no list at all', () => {
    expect(readModelList({ object: 'list' })).toBeUndefined();
    expect(readModelList('models')).toBeUndefined();
    expect(readModelList(null)).toBeUndefined();
  });
});

describe('acceptsImagesFromHints', () => {
  it.each([
    [{ architecture: { input_modalities: ['text', 'image'] } }, true],
    [{ architecture: { input_modalities: ['text'] } }, false],
    [{ input_modalities: ['text', 'audio'] }, false],
    [{ capabilities: ['chat', 'vision'] }, true],
    [{ capabilities: { vision: true } }, true],
    [{ capabilities: { vision: false, chat: true } }, false],
    [{ capabilities: ['chat'] }, undefined],
    [{ owned_by: 'relay' }, undefined],
  ])('reads %j as %s', (hints, expected) => {
    expect(acceptsImagesFromHints({ id: 'm', ...hints })).toBe(expected);
  });

  it('is carried on the listed model only where the relay says', () => {
    const models = readModelList({
      data: [
        { id: 'eyes', architecture: { input_modalities: ['text', 'image'] } },
        { id: 'plain' },
      ],
    });
    expect(models?.map((m) => [m.id, m.acceptsImages])).toEqual([
      ['eyes', true],
      ['plain', undefined],
    ]);
  });
});
