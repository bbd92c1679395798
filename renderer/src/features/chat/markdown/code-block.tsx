import { useEffect, useState } from 'react';
import { useT } from '../../../i18n/i18n';
import { copyText } from '../../../lib/clipboard';
import { highlightCode, highlightedBefore, languageName } from './highlight';

export interface CodeBlockProps {
  code: string;
  /** The fence's language, as written after the backticks. */
  language?: string | undefined;
  /** False while the block is still growing: it is highlighted once it is complete. */
  complete: boolean;
}

/** A fenced code block: its language, a copy button, and highlighting once the grammar loads. */
export function CodeBlock({ code, language, complete }: CodeBlockProps) {
  const t = useT();
  // Highlighted before (the row mounted again): shown at once, without a plain frame first.
  const [highlighted, setHighlighted] = useState<{ code: string; html: string } | undefined>(() => {
    const html = complete ? highlightedBefore(code, language) : undefined;
    return html === undefined ? undefined : { code, html };
  });
  const [copied, setCopied] = useState<'copied' | 'failed' | undefined>();
  const known = languageName(language) !== undefined;

  useEffect(() => {
    if (!complete || !known || highlighted?.code === code) return;
    let live = true;
    void highlightCode(code, language).then((html) => {
      if (live && html !== undefined) setHighlighted({ code, html });
    });
    return () => {
      live = false;
    };
  }, [code, language, complete, known]);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(undefined), 1500);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await copyText(code);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  const html = highlighted?.code === code ? highlighted.html : undefined;
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span className="md-code-language">{language ?? t('chat.code.text')}</span>
        <button type="button" className="md-code-copy" onClick={() => void copy()}>
          {t(
            copied === 'copied'
              ? 'chat.code.copied'
              : copied === 'failed'
                ? 'chat.code.notCopied'
                : 'chat.code.copy',
          )}
        </button>
      </div>
      <pre>
        {html !== undefined ? (
          // highlight.js escapes the code itself and adds only <span class="hljs-…">: no markup
          // from the model reaches the page.
          <code
            className={`hljs language-${language}`}
            dangerouslySetInnerHTML={{ __html: html }}
          />
        ) : (
          <code className={language ? `language-${language}` : undefined}>{code}</code>
        )}
      </pre>
    </div>
  );
}
