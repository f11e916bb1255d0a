import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import {
  assertValidKey,
  MeasuringStream,
  putBytes,
  type BlobBody,
  type BlobInfo,
  type BlobStore,
  type BlobStream,
  type ByteRange,
  type ListedBlob,
  type PutOptions,
  type PutResult,
} from "./blob-store.ts";

export interface S3BlobStoreOptions {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

const PART_SIZE = 8 * 1024 * 1024;
/** Tries per S3 request, the first included: bounded, so a throttling store answers in seconds. */
export const S3_MAX_ATTEMPTS = 3;

function isNotFound(error: unknown) {
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
  );
}

/**
 * Blobs in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO). Large streams go up as
 * multipart uploads; an object only becomes visible when its upload completes, and a failed
 * upload is aborted so no parts linger.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = "s3" as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Throttling (SlowDown, 503) is retried with backoff, then surfaces as 503 storage_unavailable.
      maxAttempts: S3_MAX_ATTEMPTS,
      retryMode: "standard",
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: BlobBody, options: PutOptions = {}): Promise<PutResult> {
    assertValidKey(key);
    if (Buffer.isBuffer(body)) {
      return putBytes(body, options.maxBytes, () =>
        this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: options.contentType, ContentLength: body.length })),
      );
    }
    const measure = new MeasuringStream(options.maxBytes);
    const source = body instanceof Readable ? body : Readable.from(body);
    source.on("error", (error) => measure.destroy(error));
    source.pipe(measure);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: measure, ContentType: options.contentType },
      partSize: PART_SIZE,
      queueSize: 4,
      leavePartsOnError: false,
    });
    await upload.done();
    return measure.result();
  }

  async get(key: string, range?: ByteRange): Promise<BlobStream | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const total = out.ContentRange ? Number(out.ContentRange.split("/")[1]) : Number(out.ContentLength ?? 0);
      return { stream: out.Body as Readable, size: total, lastModified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0), lastModified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix = ""): AsyncIterable<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (!item.Key) continue;
        yield { key: item.Key, size: Number(item.Size ?? 0), lastModified: item.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    // A key per check: instances in containers share a pid (1), and checks of one instance overlap. At the
    // top level, as no folder-backed store (MinIO, s3rver) can remove the folder under another check's write.
    const key = `.health-${randomUUID()}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: "ok" }));
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async sweepIncomplete(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    try {
      const out = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket }));
      for (const upload of out.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || (upload.Initiated?.getTime() ?? 0) > cutoff) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }),
        );
        removed++;
      }
    } catch (error) {
      // Some S3-compatible servers do not implement listing multipart uploads; nothing to sweep there.
      if ((error as { name?: string }).name !== "NotImplemented") throw error;
    }
    return removed;
  }

  /** A short-lived URL for `S3_SERVE=redirect`. */
  presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<string> {
    assertValidKey(key);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: downloadName,
      }),
      { expiresIn: expiresInSeconds },
    );
  }
}
