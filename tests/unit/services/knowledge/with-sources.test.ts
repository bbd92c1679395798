/**
 * Where the retrieved sources go in the request: after the question's text, whether the question
 * is plain text or a message of parts carrying images.
 */
import { describe, expect, it } from 'vitest';
import { withSources } from '../../../../electron/main/services/knowledge/retrieval';
import type { ChatMessage } from '../../../../electron/shared/relay-requests';

const SOURCES = ['[1] harbour.md\nMooring fees are paid monthly.'];
const IMAGE = {
  type: 'image_url',
  image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' },
} as const;

function lastUser(messages: ChatMessage[]): ChatMessage {
  return messages.filter((m) => m.role === 'user').at(-1)!;
}

describe('sources in the request', () => {
  it('follow a plain question, with the instructions as a system message', () => {
    const out = withSources([{ role: 'user', content: 'Fees?' }], 'Fees?', SOURCES);
    expect(out[0]).toMatchObject({ role: 'system' });
    expect(lastUser(out).content).toBe(
      `Fees?\n\n<knowledge-sources>\n${SOURCES[0]}\n</knowledge-sources>`,
    );
  });

  it('go into the text part of a question sent with an image, and the image stays', () => {
    const history: ChatMessage[] = [
      {
        role: 'user',
        content: [{ type: 'text', text: 'What is on this sign?' }, IMAGE],
      },
    ];
    const content = lastUser(withSources(history, 'What is on this sign?', SOURCES)).content;
    expect(content).toEqual([
      {
        type: 'text',
        text: `What is on this sign?\n\n<knowledge-sources>\n${SOURCES[0]}\n</knowledge-sources>`,
      },
      IMAGE,
    ]);
    expect(JSON.stringify(content)).not.toContain('[object Object]');
  });

  it('get a text part of their own when the question is only an image', () => {
    const history: ChatMessage[] = [{ role: 'user', content: [IMAGE] }];
    const content = lastUser(withSources(history, '', SOURCES)).content;
    expect(content).toEqual([
      { type: 'text', text: `<knowledge-sources>\n${SOURCES[0]}\n</knowledge-sources>` },
      IMAGE,
    ]);
  });
});
