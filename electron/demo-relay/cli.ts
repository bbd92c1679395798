/**
 * `npm run relay -- [options]`: runs the demo relay standalone until Ctrl+C.
 * Exit codes: 0 after a clean stop, 1 when the relay cannot start, 2 for a bad command line.
 */
import { parseArgs } from 'node:util';
import {
  DEFAULT_HOST,
  DEFAULT_SETTINGS,
  MAX_REPLY_TOKENS,
  checkKey,
  type DemoRelayOptions,
} from './options';
import { DEMO_MODELS } from './models/catalog';
import { startDemoRelay } from './index';

const DEFAULT_PORT = 8787;

const USAGE = `Usage: npm run relay -- [options]

Runs the demo Model Relay on this machine. Clients use the printed address as the base URL
(OpenAI-style clients: the address followed by /v1).

Options:
  --port <n>               port to listen on, 0 for any free port (default ${DEFAULT_PORT})
  --host <address>         address to bind (default ${DEFAULT_HOST}: this machine only)
  --key <key>              an accepted API key; repeat for several (default: one random sk-demo-... key)
  --balance <credits>      starting balance of every key (default ${DEFAULT_SETTINGS.balance})
  --cost <credits>         credits each request draws (default ${DEFAULT_SETTINGS.cost})
  --rate <n>               requests per key per minute before 429 (default ${DEFAULT_SETTINGS.ratePerMinute})
  --latency <ms>           delay before each answer (default ${DEFAULT_SETTINGS.latencyMs})
  --tokens-per-second <n>  pace of streamed chat replies, 0 = unpaced (default ${DEFAULT_SETTINGS.tokensPerSecond})
  --reply-tokens <n>       make every chat reply this many tokens long, padded with plain
                           numbered paragraphs; 0 = each reply its own length (default ${DEFAULT_SETTINGS.replyTokens})
  --quiet                  do not log requests
  -h, --help               show this help
`;

class UsageError extends Error {}

function parseCommandLine(args: string[]): {
  help: boolean;
  quiet: boolean;
  options: DemoRelayOptions;
} {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        key: { type: 'string', multiple: true },
        balance: { type: 'string' },
        cost: { type: 'string' },
        rate: { type: 'string' },
        latency: { type: 'string' },
        'tokens-per-second': { type: 'string' },
        'reply-tokens': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  const keys = values.key ?? [];
  for (const key of keys) {
    try {
      checkKey(key);
    } catch {
      throw new UsageError('--key must be 1 to 256 visible ASCII characters without spaces');
    }
  }
  if (values.host !== undefined && values.host.trim() === '')
    throw new UsageError('--host must not be empty');
  return {
    help: values.help ?? false,
    quiet: values.quiet ?? false,
    options: {
      port: numberOption('--port', values.port, DEFAULT_PORT, {
        min: 0,
        max: 65535,
        integer: true,
      }),
      host: values.host ?? DEFAULT_HOST,
      keys: keys.length > 0 ? keys : undefined,
      balance: numberOption('--balance', values.balance, DEFAULT_SETTINGS.balance, { min: 0 }),
      cost: numberOption('--cost', values.cost, DEFAULT_SETTINGS.cost, { min: 0 }),
      ratePerMinute: numberOption('--rate', values.rate, DEFAULT_SETTINGS.ratePerMinute, {
        min: 1,
        integer: true,
      }),
      latencyMs: numberOption('--latency', values.latency, DEFAULT_SETTINGS.latencyMs, { min: 0 }),
      tokensPerSecond: numberOption(
        '--tokens-per-second',
        values['tokens-per-second'],
        DEFAULT_SETTINGS.tokensPerSecond,
        {
          min: 0,
        },
      ),
      replyTokens: numberOption(
        '--reply-tokens',
        values['reply-tokens'],
        DEFAULT_SETTINGS.replyTokens,
        { min: 0, max: MAX_REPLY_TOKENS, integer: true },
      ),
    },
  };
}

function numberOption(
  name: string,
  text: string | undefined,
  fallback: number,
  rule: { min: number; max?: number; integer?: boolean },
): number {
  if (text === undefined) return fallback;
  // Number('') is 0 and Number('0x10') is 16: accept plain decimal notation only.
  const value = /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  const max = rule.max ?? Number.MAX_SAFE_INTEGER;
  if (
    !Number.isFinite(value) ||
    value < rule.min ||
    value > max ||
    (rule.integer && !Number.isInteger(value))
  ) {
    const kind = rule.integer ? 'an integer' : 'a number';
    const range =
      rule.max === undefined ? `${rule.min} or more` : `from ${rule.min} to ${rule.max}`;
    throw new UsageError(`${name} must be ${kind} ${range}, not ${JSON.stringify(text)}`);
  }
  return value;
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`demo-relay: ${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (command.help) {
    process.stdout.write(USAGE);
    return;
  }

  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  let relay;
  try {
    relay = await startDemoRelay({
      ...command.options,
      log: command.quiet ? undefined : (line) => print(`  ${line}`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${command.options.port} is already in use (try --port 0)`
        : String(error);
    process.stderr.write(`demo-relay: cannot start: ${reason}\n`);
    process.exit(1);
  }

  const { settings } = relay;
  print(`Demo relay listening on ${relay.url}`);
  print(`  OpenAI-style base URL: ${relay.url}/v1`);
  print(`  API key${relay.keys.length > 1 ? 's' : ''}: ${relay.keys.join(', ')}`);
  print(`  Balance: ${settings.balance} credits per key; each request costs ${settings.cost}`);
  print(`  Rate limit: ${settings.ratePerMinute} requests per minute per key`);
  print(
    `  Streaming: ${settings.tokensPerSecond === 0 ? 'unpaced' : `${settings.tokensPerSecond} tokens per second`}; latency ${settings.latencyMs} ms${settings.replyTokens > 0 ? `; replies of ${settings.replyTokens} tokens` : ''}`,
  );
  print(`  Models: ${DEMO_MODELS.map((model) => model.id).join(', ')}`);
  print('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1); // a second Ctrl+C means "now"
    stopping = true;
    print(`Stopping (${signal})...`);
    void relay.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
