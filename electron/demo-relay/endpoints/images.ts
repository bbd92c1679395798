/** POST /v1/images/generations (wire-conventions.md §5), with `response_format` and `n` honoured. */
import type { IncomingMessage } from 'node:http';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { unixSeconds, type Endpoint, type RelayState } from '../context';
import { sendJson } from '../http-io';
import { renderDemoImage } from '../models/images';
import { validateImageRequest } from '../validation';

export const generateImages: Endpoint = {
  method: 'POST',
  prepare(body) {
    const request = validateImageRequest(body);
    return {
      streaming: false,
      async respond({ req, res, relay, signal }) {
        const data: Array<{ b64_json: string } | { url: string }> = [];
        // A seed of its own for each request: asking again gives new pictures, as a model does.
        const seed = relay.nextId('image');
        for (let index = 0; index < request.count; index++) {
          // A big image takes a fraction of a second: let other requests in between images.
          if (index > 0) await yieldToEventLoop(undefined, { signal });
          const png = renderDemoImage(request.prompt, request.width, request.height, index, seed);
          data.push(
            request.format === 'url'
              ? { url: `${publicBase(req, relay)}/files/${relay.imageLinks.put(png)}.png` }
              : { b64_json: png.toString('base64') },
          );
        }
        sendJson(res, 200, { created: unixSeconds(), data });
      },
    };
  },
};

/**
 * The address the client used to reach the relay, so a link works from where the request came
 * from (e.g. over a LAN with `--host 0.0.0.0`). Falls back to the relay's own address when the
 * Host header looks odd.
 */
function publicBase(req: IncomingMessage, relay: RelayState): string {
  const host = req.headers.host;
  if (host && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host))
    return `http://${host}`;
  return relay.url();
}
