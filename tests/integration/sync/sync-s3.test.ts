/** The sync scenarios through a real S3-compatible server (s3rver), started by the test. */
import { afterAll, beforeAll } from 'vitest';
import { S3Target } from '../../../electron/main/services/sync/targets/s3-target';
import { startS3, type RunningS3 } from '../../fakes/sync-servers';
import { syncScenarios, targetContents } from './scenarios';

let server: RunningS3;
beforeAll(async () => {
  server = await startS3();
});
afterAll(async () => {
  await server.stop();
});

syncScenarios(
  'S3 (s3rver)',
  async () => {
    const prefix = server.prefix();
    const target = () =>
      new S3Target({
        endpoint: server.endpoint,
        bucket: server.bucket,
        region: 'us-east-1',
        prefix,
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
      });
    return { target, contents: () => targetContents(target()) };
  },
  { tellsTime: true },
);
