import type { PipelineLlm } from 'crosscheck';

/** What the pipeline extracts from an invoice. */
export interface InvoiceFields {
  readonly vendor: string;
  /** The amount due: the items' sum minus any discount. */
  readonly total: number;
  readonly currency: string;
}

/**
 * The pipeline under test: builds a prompt, calls the model (through the handle crosscheck
 * gives each sample), parses the JSON reply. It is ordinary application code: in production
 * `llm` would be a thin wrapper over your client; under test crosscheck binds it to one sample.
 */
export const extractInvoice = async (invoice: string, llm: PipelineLlm): Promise<InvoiceFields> => {
  const reply = await llm.complete([
    {
      role: 'system',
      content:
        'Extract the vendor, the amount due (sum of the items minus any discount) and the currency from the invoice. Reply with one JSON object {"vendor", "total", "currency"} and nothing else.',
    },
    { role: 'user', content: invoice },
  ]);
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  if (json === undefined) throw new SyntaxError(`no JSON object in the reply: ${reply.slice(0, 80)}`);
  const fields = JSON.parse(json) as Record<string, unknown>;
  return {
    vendor: String(fields.vendor),
    total: Number(fields.total),
    currency: String(fields.currency),
  };
};
