/**
 * A writer process for the crash test: opens the database (recovering what a previous kill left),
 * starts a new conversation and streams one reply from the demo relay into it, then exits.
 * The test kills it with SIGKILL at random moments.
 *
 * Arguments: <database path> <relay url> <api key> [prompt]. Prints `started <replyId>` once the reply
 * row exists.
 */
import { ChatService } from '../../electron/main/services/chat/chat-service';
import { ChatStore } from '../../electron/main/services/chat/store';
import { openDatabase } from '../../electron/main/services/database';
import { createRelayClient } from '../../electron/main/services/relay/relay-client';

async function main(): Promise<void> {
  const [path, baseUrl, apiKey, prompt] = process.argv.slice(2);
  if (!path || !baseUrl || !apiKey) throw new Error('usage: <db> <relay url> <key>');
  const db = await openDatabase({ path });
  const store = await ChatStore.open(db);
  const client = createRelayClient({ baseUrl, apiKey });
  const chat = new ChatService({
    store,
    emit: () => undefined,
    client: async () => client,
    defaults: async () => ({ temperature: 1, maxTokens: null }),
  });
  const conversation = store.create({ model: 'demo-chat' });
  const words = Array.from({ length: 40 }, (_, i) => `crash${i}`).join(' ');
  const { replyId } = await chat.send(conversation.id, prompt ?? words);
  process.stdout.write(`started ${replyId}\n`);
  await chat.settled(replyId);
  db.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
