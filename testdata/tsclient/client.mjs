// A TypeScript SDK client (v2, revision 2026-07-28) driving a vurb server:
// the Go test starts the server and runs this with the server's URL. It
// answers elicitations with "yes" and sampling by upper-casing the prompt,
// and prints what it saw as one JSON object.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const url = process.argv[2];
const client = new Client(
  { name: 'vurb-ts-e2e', version: '1.0.0' },
  {
    capabilities: { elicitation: {}, sampling: {} },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
let asked = 0;
client.setRequestHandler('elicitation/create', async () => {
  asked++;
  return { action: 'accept', content: { yes: true } };
});
client.setRequestHandler('sampling/createMessage', async (request) => {
  asked++;
  const text = request.params.messages[0].content.text;
  return { role: 'assistant', model: 'ts', content: { type: 'text', text: text.toUpperCase() } };
});

await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const out = { protocol: client.getNegotiatedProtocolVersion?.() };
out.tools = (await client.listTools()).tools.map((t) => t.name).sort();
const text = (res) => res.content.map((c) => c.text).join('');
out.search = text(await client.callTool({ name: 'docs_search', arguments: { query: 'golang' } }));
out.invalid = await client.callTool({ name: 'docs_search', arguments: { limt: 1 } });
out.delete = text(await client.callTool({ name: 'projects_delete', arguments: { id: 'p7' } }));
out.summarize = text(await client.callTool({ name: 'docs_summarize', arguments: { id: 'p7' } }));
out.asked = asked;
console.log(JSON.stringify(out));
await client.close();
