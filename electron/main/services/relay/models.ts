export type ModelKind = 'chat' | 'embedding' | 'image';

/** Where a model's kind came from, so the picker can say why a model sits where it does. */
export type ModelKindSource = 'hint' | 'id' | 'override';

export interface RelayModel {
  id: string;
  kind: ModelKind;
  kindSource: ModelKindSource;
  ownedBy?: string;
  /** Whether the relay says the model reads images (`acceptsImagesFromHints`); absent: it does not say. */
  acceptsImages?: boolean;
  /** The record exactly as the relay sent it. */
  raw: Record<string, unknown>;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (value !== null && typeof value === 'object') {
    // `capabilities: { embeddings: true, chat: false }`
    return Object.entries(value)
      .filter(([, enabled]) => enabled === true)
      .map(([name]) => name);
  }
  return [];
}

function kindFromHints(raw: Record<string, unknown>): ModelKind | undefined {
  const architecture = raw.architecture;
  const outputModalities =
    architecture !== null && typeof architecture === 'object'
      ? strings((architecture as Record<string, unknown>).output_modalities)
      : [];
  const hints = [
    ...strings(raw.supported_endpoint_types),
    ...outputModalities,
    ...strings(raw.mode),
    ...strings(raw.type),
    ...strings(raw.capabilities),
  ].map((h) => h.toLowerCase());
  if (hints.length === 0) return undefined;
  // Image output wins over text: a model that draws is used from the image studio.
  if (hints.some((h) => /image[-_ ]?gen|^image$|^images$|text-to-image/.test(h))) return 'image';
  if (hints.some((h) => /embed/.test(h))) return 'embedding';
  if (
    hints.some((h) =>
      /^(chat|completion|completions|llm|vlm|text|language|openai|tools|vision)$/.test(h),
    )
  )
    return 'chat';
  return undefined;
}

/**
 * Whether a model reads images, where its record says (docs/design/attachments.md, "Images with a
 * message"): `architecture.input_modalities` (OpenRouter's list, e.g. `["text","image"]`), or
 * `vision` / `image_input` / `image` among `capabilities` or `input_modalities` at the top level
 * (a list, or an object of flags). Undefined when the record says nothing about its input: the
 * person's own setting decides then.
 */
export function acceptsImagesFromHints(raw: Record<string, unknown>): boolean | undefined {
  const architecture = raw.architecture;
  const fromArchitecture =
    architecture !== null && typeof architecture === 'object'
      ? (architecture as Record<string, unknown>).input_modalities
      : undefined;
  const lists = [fromArchitecture, raw.input_modalities].filter((v) => v !== undefined);
  const capabilities = raw.capabilities;
  const flags =
    capabilities !== null && typeof capabilities === 'object' && !Array.isArray(capabilities)
      ? (capabilities as Record<string, unknown>)
      : undefined;
  const visionFlag = flags && ['vision', 'image_input'].find((k) => typeof flags[k] === 'boolean');
  if (visionFlag !== undefined) return flags![visionFlag] === true;
  const named = [...lists.flatMap(strings), ...strings(capabilities)].map((h) => h.toLowerCase());
  if (named.some((h) => /^(image|images|vision|image_input|image-input)$/.test(h))) return true;
  // An input list that names only other inputs (text, audio) says it reads no images.
  return lists.length > 0 ? false : undefined;
}

const EMBEDDING_ID = /embed/;
const IMAGE_ID = /dall-e|gpt-image|image|flux|stable-diffusion|sdxl|imagen|midjourney/;

function kindFromId(id: string): ModelKind {
  const lower = id.toLowerCase();
  if (EMBEDDING_ID.test(lower)) return 'embedding';
  if (IMAGE_ID.test(lower)) return 'image';
  return 'chat';
}

/**
 * Sorts a model record into chat, embedding or image (wire-conventions.md §6): explicit hints
 * first, then the id, and the person's own override above both.
 */
export function classifyModel(
  raw: Record<string, unknown> & { id: string },
  override?: ModelKind,
): Pick<RelayModel, 'kind' | 'kindSource'> {
  if (override !== undefined) return { kind: override, kindSource: 'override' };
  const hinted = kindFromHints(raw);
  if (hinted !== undefined) return { kind: hinted, kindSource: 'hint' };
  return { kind: kindFromId(raw.id), kindSource: 'id' };
}

/** Reads a model list (`{"object":"list","data":[…]}` or a bare `{"data":[…]}`), skipping entries without an id. */
export function readModelList(
  body: unknown,
  overrides: Readonly<Record<string, ModelKind>> = {},
): RelayModel[] | undefined {
  const list = Array.isArray(body)
    ? body
    : body !== null && typeof body === 'object'
      ? (body as Record<string, unknown>).data
      : undefined;
  if (!Array.isArray(list)) return undefined;
  const seen = new Set<string>();
  const models: RelayModel[] = [];
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    const raw = entry as Record<string, unknown>;
    const id = typeof raw.id === 'string' ? raw.id.trim() : '';
    if (id === '' || seen.has(id)) continue;
    seen.add(id);
    const ownedBy =
      typeof raw.owned_by === 'string' && raw.owned_by !== '' ? raw.owned_by : undefined;
    const override = Object.hasOwn(overrides, id) ? overrides[id] : undefined;
    const acceptsImages = acceptsImagesFromHints(raw);
    models.push({
      id,
      ...classifyModel({ ...raw, id }, override),
      ...(ownedBy ? { ownedBy } : {}),
      ...(acceptsImages === undefined ? {} : { acceptsImages }),
      raw,
    });
  }
  return models;
}
