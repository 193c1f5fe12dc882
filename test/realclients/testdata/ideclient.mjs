// ideclient.mjs drives Gemini CLI's own IdeClient (@google/gemini-cli-core)
// against the desk: it connects through the discovery file, then opens a
// diff for each "path=content" argument in turn and prints one JSON line
// per outcome. GEMINI_CORE is the package's entry file. Run it from inside
// the desk's workspace.
const { IdeClient } = await import(process.env.GEMINI_CORE);
const client = await IdeClient.getInstance();
await client.connect({ logToConsole: true });
console.log(JSON.stringify({ status: client.getConnectionStatus().status, diffing: client.isDiffingEnabled() }));
for (const arg of process.argv.slice(2)) {
  const i = arg.indexOf('=');
  const result = await client.openDiff(arg.slice(0, i), arg.slice(i + 1));
  console.log(JSON.stringify({ file: arg.slice(0, i), ...result }));
}
await client.disconnect();
process.exit(0);
