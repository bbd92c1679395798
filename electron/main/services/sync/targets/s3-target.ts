/**
 * S3-compatible storage (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Wasabi) as sync storage.
 *
 * Requests are signed with `aws4fetch` (AWS Signature Version 4 in about six kilobytes, no
 * dependencies, on the Web Crypto Node has) and sent through the app's `fetch`, rather than the
 * AWS SDK's S3 client, which brings dozens of packages for the four calls used here: PUT (with
 * `If-None-Match: *`, which AWS, R2 and MinIO honour), GET, DELETE and ListObjectsV2.
 */
import { AwsClient } from 'aws4fetch';
import { httpProblem, hostOf, networkProblem } from './problems';
import type { Listing, StoredObject, SyncTarget } from './target';

export interface S3Options {
  /** The service's address: https://s3.eu-central-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  region: string;
  /** A folder inside the bucket, or '' for its top. */
  prefix?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (`endpoint/bucket/key`, what MinIO and most others take) or in the host name. */
  pathStyle?: boolean;
  timeoutSeconds?: number;
  fetch?: typeof fetch;
}

function xmlValues(xml: string, tag: string): string[] {
  const out: string[] = [];
  const pattern = new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g');
  for (let match = pattern.exec(xml); match !== null; match = pattern.exec(xml))
    out.push(
      match[1]!
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
  return out;
}

export class S3Target implements SyncTarget {
  readonly description: string;
  readonly #options: S3Options;
  readonly #client: AwsClient;
  readonly #host: string;
  readonly #timeout: number;
  readonly #fetch: typeof fetch;
  readonly #prefix: string;

  constructor(options: S3Options) {
    this.#options = options;
    this.#client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: 's3',
      region: options.region,
      retries: 0,
    });
    this.#host = hostOf(options.endpoint);
    this.#timeout = options.timeoutSeconds ?? 60;
    this.#fetch = options.fetch ?? fetch;
    const folder = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
    this.#prefix = folder === '' ? '' : `${folder}/`;
    this.description = `S3 bucket ${options.bucket} at ${options.endpoint}`;
  }

  #bucketUrl(): string {
    const endpoint = new URL(this.#options.endpoint);
    if (this.#options.pathStyle ?? true) {
      const base = endpoint.href.replace(/\/+$/, '');
      return `${base}/${encodeURIComponent(this.#options.bucket)}`;
    }
    endpoint.hostname = `${this.#options.bucket}.${endpoint.hostname}`;
    return endpoint.href.replace(/\/+$/, '');
  }

  #keyUrl(name: string): string {
    const key = `${this.#prefix}${name}`.split('/').map(encodeURIComponent).join('/');
    return `${this.#bucketUrl()}/${key}`;
  }

  async #send(
    url: string,
    init: { method: string; body?: Uint8Array; headers?: Record<string, string> },
    where: string,
  ): Promise<Response> {
    let response: Response;
    try {
      const request = await this.#client.sign(url, {
        method: init.method,
        headers: init.headers ?? {},
        ...(init.body ? { body: init.body } : {}),
      });
      response = await this.#fetch(request, { signal: AbortSignal.timeout(this.#timeout * 1000) });
    } catch (error) {
      throw networkProblem(error, this.#host, this.#timeout);
    }
    if (response.ok || response.status === 404 || response.status === 412) return response;
    const text = await response.text().catch(() => '');
    const code = xmlValues(text, 'Code')[0];
    // A wrong key id or signature is S3's 403, not a 401: say it as the sign-in it is.
    if (
      response.status === 403 &&
      (code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch')
    )
      throw httpProblem(401, this.#host, where);
    if (code === 'SlowDown') throw httpProblem(429, this.#host, where);
    if (code === 'QuotaExceeded' || code === 'StorageFull')
      throw httpProblem(507, this.#host, where);
    if (code === 'EntityTooLarge') throw httpProblem(413, this.#host, where, init.body?.byteLength);
    throw httpProblem(response.status, this.#host, where, init.body?.byteLength, code);
  }

  #bucketMissing(): Error {
    return httpProblem(404, this.#host, this.#options.bucket);
  }

  async list(prefix: string): Promise<Listing> {
    const objects: StoredObject[] = [];
    let token: string | undefined;
    let serverTime: Date | undefined;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${this.#prefix}${prefix}` });
      if (token !== undefined) query.set('continuation-token', token);
      const response = await this.#send(
        `${this.#bucketUrl()}?${query.toString()}`,
        { method: 'GET' },
        this.#options.bucket,
      );
      if (response.status === 404) throw this.#bucketMissing();
      const date = response.headers.get('date');
      if (date) serverTime = new Date(date);
      const xml = await response.text();
      const keys = xmlValues(xml, 'Key');
      const sizes = xmlValues(xml, 'Size');
      keys.forEach((key, index) =>
        objects.push({ name: key.slice(this.#prefix.length), size: Number(sizes[index] ?? 0) }),
      );
      token =
        xmlValues(xml, 'IsTruncated')[0] === 'true'
          ? xmlValues(xml, 'NextContinuationToken')[0]
          : undefined;
    } while (token !== undefined);
    return serverTime === undefined ? { objects } : { objects, serverTime };
  }

  async get(name: string): Promise<Uint8Array | undefined> {
    const response = await this.#send(this.#keyUrl(name), { method: 'GET' }, name);
    if (response.status === 404) {
      const code = xmlValues(await response.text().catch(() => ''), 'Code')[0];
      if (code === 'NoSuchBucket') throw this.#bucketMissing();
      return undefined;
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw networkProblem(error, this.#host, this.#timeout);
    }
  }

  async putIfAbsent(name: string, bytes: Uint8Array): Promise<'written' | 'exists'> {
    const response = await this.#send(
      this.#keyUrl(name),
      {
        method: 'PUT',
        body: bytes,
        headers: { 'if-none-match': '*', 'content-type': 'application/octet-stream' },
      },
      name,
    );
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 412) return 'exists';
    if (response.status === 404) throw this.#bucketMissing();
    return 'written';
  }

  async delete(name: string): Promise<void> {
    const response = await this.#send(this.#keyUrl(name), { method: 'DELETE' }, name);
    const text = await response.text().catch(() => '');
    if (response.status === 404 && xmlValues(text, 'Code')[0] === 'NoSuchBucket')
      throw this.#bucketMissing();
  }
}
