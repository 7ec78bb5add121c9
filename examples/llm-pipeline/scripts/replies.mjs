/**
 * The replies the committed cache holds. No model wrote them: this repository has no live
 * model, so scripts/record-cache.mjs serves these computed replies from crosscheck's scripted
 * OpenAI-compatible server. Three samples of the extractor answer alike but spell it differently
 * (sample 1 lower-cases the vendor, writes the total as text and wraps the JSON in prose);
 * sample 2 carries a planted inconsistency, of the kind models make: it forgets the discount.
 * The review's generator and judge are scripted here too; the judge computes the amount due.
 * Every reply is computed from the request's text alone, so any invoice the tests send is
 * answered, the metamorphic relation's follow-ups too (an invoice with its items shuffled by a
 * seeded draw, the same ones on every run): recording covers whatever the tests ask.
 */

/** The fields of an invoice's text. */
export const parseInvoice = (text) => {
  const line = (name) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1];
  const items = (line('Items') ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((x) => Number.isFinite(x));
  const discount = Number(line('Discount') ?? 0);
  const cents = Math.round(items.reduce((a, b) => a + b, 0) * 100);
  return {
    vendor: line('Vendor') ?? '',
    items,
    discount,
    total: (cents - Math.round(discount * 100)) / 100,
    undiscounted: cents / 100,
    currency: line('Currency') ?? '',
  };
};

/** The extractor's reply, sample by sample. */
export const extractionReply = (invoice, sample) => {
  const f = parseInvoice(invoice);
  if (sample === 1) {
    return `Here are the fields:\n\`\`\`json\n${JSON.stringify({
      vendor: `${f.vendor.toLowerCase()}.`,
      total: f.total.toFixed(2),
      currency: f.currency,
    })}\n\`\`\``;
  }
  const total = sample === 2 ? f.undiscounted : f.total;
  return JSON.stringify({ vendor: f.vendor, total, currency: f.currency });
};

const block = (lines) => `\`\`\`json\n${lines.join('\n')}\n\`\`\``;
const invoice = (vendor, items, discount, currency) =>
  JSON.stringify([
    [
      `Vendor: ${vendor}`,
      `Items: ${items.join(', ')}`,
      ...(discount ? [`Discount: ${discount}`] : []),
      `Currency: ${currency}`,
    ].join('\n'),
  ]);

/** The review's scenarios (category partitioning of the specification) and inputs for each. */
export const SCENARIOS = [
  { title: 'one item, no discount', inputs: [invoice('Initech', ['12.50'], null, 'USD')] },
  { title: 'several items', inputs: [invoice('ACME Corp', ['1.10', '2.20', '3.30'], null, 'EUR')] },
  { title: 'with a discount', inputs: [invoice('Globex Ltd', ['100.00', '20.00'], '15.00', 'USD')] },
];

export const scenariosReply = () =>
  `\`\`\`json\n${JSON.stringify({
    scenarios: SCENARIOS.map((s) => ({
      title: s.title,
      category: 'invoice shape',
      choice: s.title,
      preconditions: 'none',
      behavior: `the fields are extracted for ${s.title}`,
    })),
  })}\n\`\`\``;

export const inputsReply = (prompt) => {
  const n = Number(/Scenario S(\d+):/.exec(prompt)?.[1] ?? 0);
  return block(SCENARIOS[n - 1]?.inputs ?? []);
};

export const propertiesReply = () => block(['{"parameters": [], "exceptions": []}']);

/** The judge: reads the INPUT and OUTPUT blocks and checks the fields against the invoice. */
export const judgeReply = (prompt) => {
  const input = /<<<INPUT\n([\s\S]*?)\nINPUT>>>/.exec(prompt)?.[1] ?? '[""]';
  const output = /<<<OUTPUT\n([\s\S]*?)\nOUTPUT>>>/.exec(prompt)?.[1] ?? '';
  const want = parseInvoice(JSON.parse(input)[0]);
  let got = null;
  try {
    got = JSON.parse(output.replace(/^returned: /, ''));
  } catch {}
  const ok =
    got !== null &&
    got.vendor === want.vendor &&
    Math.abs(Number(got.total) - want.total) < 0.005 &&
    got.currency === want.currency;
  return ok
    ? `The amount due is ${want.total.toFixed(2)} ${want.currency}, as returned.\nVERDICT: CORRECT`
    : `The amount due is ${want.total.toFixed(2)} ${want.currency}; the output says otherwise.\nVERDICT: INCORRECT`;
};
