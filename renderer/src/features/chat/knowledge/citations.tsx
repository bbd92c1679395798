/**
 * Numbered citations in a reply asked with a knowledge base: `[n]` in the model's text becomes a
 * button that opens source n below the reply. The markdown tree is changed (a `cite` element
 * per reference), never the HTML: model output still reaches the page only as elements the
 * pipeline builds. In a reply without a retrieval, or for a number that was not a source, the
 * reference stays the text it was.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useT } from '../../../i18n/i18n';
import { useKnowledgeChatStore } from './knowledge-chat-store';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, string>; hChildren?: unknown[] };
}

const REFERENCE = /\[(\d{1,3})\]/g;

/** Splits text nodes on `[n]`; code, links and math are left alone. */
function splitReferences(node: MdNode): void {
  if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
  const out: MdNode[] = [];
  for (const child of node.children) {
    if (child.type !== 'text' || child.value === undefined || !child.value.includes('[')) {
      splitReferences(child);
      out.push(child);
      continue;
    }
    let last = 0;
    for (const match of child.value.matchAll(REFERENCE)) {
      const at = match.index;
      if (at > last) out.push({ type: 'text', value: child.value.slice(last, at) });
      out.push({
        type: 'citation',
        children: [{ type: 'text', value: match[0] }],
        data: { hName: 'cite', hProperties: { dataSource: match[1]! } },
      });
      last = at + match[0].length;
    }
    if (last < child.value.length) out.push({ type: 'text', value: child.value.slice(last) });
  }
  node.children = out;
}

export default function remarkCitations() {
  return (tree: MdNode) => splitReferences(tree);
}

/** The reply the markdown belongs to, when it was asked with a knowledge base. */
export const CitingReply = createContext<string | undefined>(undefined);

export function CitingReplyProvider({
  replyId,
  children,
}: {
  replyId: string;
  children: ReactNode;
}) {
  const cites = useKnowledgeChatStore((s) => s.replies[replyId] === true);
  return (
    <CitingReply.Provider value={cites ? replyId : undefined}>{children}</CitingReply.Provider>
  );
}

/**
 * A `[n]` reference: a button opening source n below the reply, or the text it was. A reply
 * cites only once the knowledge chip has listed the replies with sources, after it loaded its
 * words.
 */
export function Citation({
  source,
  children,
}: {
  source: string | undefined;
  children: ReactNode;
}) {
  const replyId = useContext(CitingReply);
  const t = useT();
  const n = Number(source);
  if (replyId === undefined || !Number.isInteger(n) || n < 1) return <>{children}</>;
  return (
    <button
      type="button"
      className="chat-citation"
      aria-label={t('knowledge.citation.label', { source: n })}
      title={t('knowledge.citation.title', { source: n })}
      onClick={() => useKnowledgeChatStore.getState().opened({ replyId, source: n })}
    >
      {n}
    </button>
  );
}
