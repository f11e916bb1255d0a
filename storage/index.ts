import path from "node:path";
import type { Config } from "../app/services/platform/env.server.ts";
import type { BlobStore } from "./blob-store.ts";
import { DiskBlobStore } from "./disk.ts";
import { S3BlobStore } from "./s3.ts";

export * from "./blob-store.ts";
export { DiskBlobStore } from "./disk.ts";
export { S3BlobStore } from "./s3.ts";

export function createBlobStore(config: Config): BlobStore {
  if (config.S3_BUCKET && config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY) {
    return new S3BlobStore({
      bucket: config.S3_BUCKET,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return new DiskBlobStore(path.join(config.dataDir, "files"));
}
