/**
 * KaTeX's chunk: rehype-katex (with KaTeX and the HTML parser it reads KaTeX's output with) and
 * KaTeX's style sheet and fonts. Loaded by `loadKatex` the first time a reply holds a formula.
 */
import 'katex/dist/katex.min.css';

export { default } from 'rehype-katex';
