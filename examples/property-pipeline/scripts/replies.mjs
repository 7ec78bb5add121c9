/**
 * The replies the committed cache holds, as a model might write them. No model wrote these: this
 * repository has no live model, so they were written by hand and served by crosscheck's scripted
 * OpenAI-compatible server (scripts/record-cache.mjs). One carries an off-by-one of the kind
 * models make; which one is for the property to find.
 */
const js = (body) => `\`\`\`javascript\n${body}\n\`\`\``;

export const REPLIES = [
  {
    prompt: 'Write the JavaScript function `truncate`',
    samples: [
      js(`function truncate(text, max) {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be an integer >= 1');
  return text.length <= max ? text : text.slice(0, max - 1) + '\\u2026';
}`),
      js(`function truncate(text, max) {
  if (max < 1) throw new RangeError('max < 1');
  if (text.length > max) {
    return text.substring(0, max - 1) + '…';
  }
  return text;
}`),
      js(`function truncate(text, max) {
  if (max < 1) throw new RangeError('max must be at least 1');
  if (text.length < max) return text;
  return text.slice(0, max - 1) + '…';
}`),
      js(`function truncate(text, max) {
  if (!(max >= 1)) throw new RangeError('invalid max');
  const chars = text.split('');
  if (chars.length <= max) return text;
  return chars.slice(0, max - 1).join('') + '…';
}`),
    ],
  },
];
