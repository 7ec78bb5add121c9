import { createLlm, defineTask, same } from 'crosscheck';
import fc from 'fast-check';

/**
 * The model behind the pipeline, through the committed cache in llm-cache/ (replay-only under
 * CI=true; read-write locally, calling $CROSSCHECK_LLM_BASE_URL on a miss). The committed replies
 * were recorded as `demo-extractor` of provider `scripted`: replies computed by
 * scripts/replies.mjs and served by crosscheck's scripted server (scripts/record-cache.mjs), not
 * a real model.
 */
export const llm = createLlm({
  model: 'demo-extractor',
  provider: 'scripted',
  sampling: { temperature: 0.7, maxTokens: 200 },
});

/** The task the samples are checked against: what the pipeline must do, in words. */
export const invoiceTask = defineTask({
  name: 'extractInvoice',
  entry: 'extractInvoice',
  signature: '(invoice: string) => { vendor: string, total: number, currency: string }',
  description:
    'Read an invoice of lines "Vendor: name", "Items: a, b, ..." (amounts), an optional "Discount: d" and "Currency: code". Return { vendor, total, currency }: the vendor as written, the amount due (sum of the items minus the discount, to the cent) and the currency code.',
});

/**
 * The samples spell the same answer in more than one way ("ACME Corp" and "acme corp.", 12.5
 * and 12.50): agreement is decided per field, with a comparator each.
 */
export const sameFields = same.fields({
  vendor: same.text({ ignorePunctuation: true }),
  total: same.number({ abs: 0.005 }),
  currency: same.text(),
});

const VENDORS = ['ACME Corp', 'Globex Ltd', 'Initech'];

/** Invoices as the pipeline meets them: 1 to 3 items, a discount on some, two currencies. */
export const invoices = fc
  .record({
    vendor: fc.constantFrom(...VENDORS),
    items: fc.array(fc.integer({ min: 1, max: 9999 }), { minLength: 1, maxLength: 3 }),
    discount: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
    currency: fc.constantFrom('USD', 'EUR'),
  })
  .map(({ vendor, items, discount, currency }) =>
    [
      `Vendor: ${vendor}`,
      `Items: ${items.map((c) => (c / 100).toFixed(2)).join(', ')}`,
      ...(discount === undefined ? [] : [`Discount: ${(discount / 100).toFixed(2)}`]),
      `Currency: ${currency}`,
    ].join('\n'),
  );

/**
 * The invoice with the amounts of its "Items:" line in another order (a shuffle drawn from
 * `random`, so the same seed gives the same order); every other line as it was.
 */
export const reorderItems = (invoice: string, random: () => number): string =>
  invoice.replace(/^Items: (.*)$/m, (_line, list: string) => {
    const items = list.split(', ');
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j] as string, items[i] as string];
    }
    return `Items: ${items.join(', ')}`;
  });
