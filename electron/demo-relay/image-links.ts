/**
 * Short-lived links to generated images, for `response_format: "url"`. Like the signed URLs of
 * hosted relays they need no key: the id is 128 random bits and the link expires after an hour.
 * Memory is bounded by count and bytes; the oldest links go first.
 */
import { randomBytes } from 'node:crypto';

export const IMAGE_LINK_TTL_MS = 60 * 60 * 1000;

export interface ImageLinkLimits {
  maxImages: number;
  maxBytes: number;
  ttlMs: number;
}

interface StoredImage {
  bytes: Buffer;
  expiresAt: number;
}

export class ImageLinks {
  private readonly images = new Map<string, StoredImage>();
  private totalBytes = 0;
  private readonly limits: ImageLinkLimits;
  private readonly now: () => number;

  constructor(limits: Partial<ImageLinkLimits> = {}, now: () => number = Date.now) {
    this.limits = {
      maxImages: 64,
      maxBytes: 256 * 1024 * 1024,
      ttlMs: IMAGE_LINK_TTL_MS,
      ...limits,
    };
    this.now = now;
  }

  /** Stores the PNG and returns the id of its link. */
  put(bytes: Buffer): string {
    const id = randomBytes(16).toString('hex');
    this.images.set(id, { bytes, expiresAt: this.now() + this.limits.ttlMs });
    this.totalBytes += bytes.length;
    this.evict();
    return id;
  }

  get(id: string): Buffer | undefined {
    this.evict();
    return this.images.get(id)?.bytes;
  }

  get size(): number {
    return this.images.size;
  }

  private evict(): void {
    const now = this.now();
    // A Map iterates in insertion order, which is also expiry order.
    for (const [id, image] of this.images) {
      const overLimit =
        this.images.size > this.limits.maxImages || this.totalBytes > this.limits.maxBytes;
      if (image.expiresAt > now && !overLimit) break;
      this.images.delete(id);
      this.totalBytes -= image.bytes.length;
    }
  }
}
