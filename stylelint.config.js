/**
 * Stylelint keeps right-to-left possible: a physical left or right (margin-left, padding-right,
 * left:, border-left, text-align: left, float: right…) fails `npm run lint`; the logical form
 * (margin-inline-start, inset-inline-end, text-align: start) follows the text's direction.
 *
 * Only the inline axis is checked. Top, bottom, width and height do not change with the text's
 * direction, and their logical forms would say nothing more here.
 */
const VERTICAL_AND_SIZES = [
  'top',
  'bottom',
  'width',
  'height',
  'min-width',
  'min-height',
  'max-width',
  'max-height',
  'margin-top',
  'margin-bottom',
  'padding-top',
  'padding-bottom',
  'border-top',
  'border-top-color',
  'border-top-style',
  'border-top-width',
  'border-bottom',
  'border-bottom-color',
  'border-bottom-style',
  'border-bottom-width',
  'scroll-margin-top',
  'scroll-margin-bottom',
  'scroll-padding-top',
  'scroll-padding-bottom',
  'contain-intrinsic-width',
  'contain-intrinsic-height',
  // An axis, not a side; Chromium has no overflow-inline / overflow-block yet.
  'overflow-x',
  'overflow-y',
  'overscroll-behavior-x',
  'overscroll-behavior-y',
];

/** @type {import('stylelint').Config} */
export default {
  plugins: ['stylelint-plugin-logical-css'],
  ignoreFiles: ['out/**', 'dist/**', 'node_modules/**', 'bench-results/**', 'test-results/**'],
  rules: {
    'logical-css/require-logical-properties': [true, { ignore: VERTICAL_AND_SIZES }],
    'logical-css/require-logical-keywords': [
      true,
      { ignore: ['caption-side', 'offset-anchor', 'offset-position'] },
    ],
  },
};
