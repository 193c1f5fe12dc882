// gemini.mjs — Gemini CLI's own edit code as an oracle for the engine's
// differential test (engine/oracle_gemini_test.go). It runs the functions
// of @google/gemini-cli-core that need no model, as its edit tool calls
// them, and answers one JSON case per stdin line with one JSON answer per
// stdout line:
//
//   {"op":"smart","content":…,"old":…,"new":…,"allow_multiple":…}
//       the edit tool (edit.ts, formerly smart-edit) with LLM correction
//       off: its placeholder check, CRLF read as LF, calculateReplacement,
//       getErrorReplaceResult, and CRLF written back as the tool writes it
//   {"op":"literal","content":…,"old":…,"new":…}   applyReplacement
//   {"op":"unescape","old":…}                       unescapeStringForGeminiBug
//
// Usage: node gemini.mjs NODE_MODULES_DIR
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const root = join(process.argv[2], '@google/gemini-cli-core/dist/src');
const load = (p) => import(pathToFileURL(join(root, p)).href);
const edit = await load('tools/edit.js');
const corrector = await load('utils/editCorrector.js');
const placeholders = await load('tools/omissionPlaceholderDetector.js');

// calculateReplacement only passes the config to its telemetry.
const config = new Proxy({}, { get: (_, k) => (k === 'then' ? undefined : () => undefined) });

async function smart(c) {
  const added = placeholders.detectOmissionPlaceholders(c.new);
  if (added.length > 0) {
    const had = new Set(placeholders.detectOmissionPlaceholders(c.old));
    if (added.some((p) => !had.has(p))) return { content: '', occurrences: 0, error: 'omission_placeholder' };
  }
  const crlf = c.content.includes('\r\n');
  const content = c.content.replace(/\r\n/g, '\n');
  if (c.old === '') return { content: '', occurrences: 0, error: 'attempt_to_create_existing_file' };
  const params = { file_path: 'f', old_string: c.old, new_string: c.new, allow_multiple: c.allow_multiple };
  const r = await edit.calculateReplacement(config, { params, currentContent: content, abortSignal: new AbortController().signal });
  const err = edit.getErrorReplaceResult(params, r.occurrences, r.finalOldString, r.finalNewString);
  const exact = content.split(c.old.replace(/\r\n/g, '\n')).length > 1;
  const strategy = exact ? 'exact' : r.strategy || 'loose';
  if (err) return { content: '', occurrences: r.occurrences, error: err.type, strategy };
  let out = r.newContent;
  if (crlf) out = out.replace(/\r?\n/g, '\r\n');
  return { content: out, occurrences: r.occurrences, strategy };
}

const ops = {
  smart,
  literal: async (c) => ({ content: edit.applyReplacement(c.content, c.old, c.new, false), occurrences: c.content.split(c.old).length - 1 }),
  unescape: async (c) => ({ content: corrector.unescapeStringForGeminiBug(c.old), occurrences: 0 }),
};

const out = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line) continue;
  const c = JSON.parse(line);
  let a;
  try {
    a = await ops[c.op](c);
  } catch (e) {
    a = { content: '', occurrences: 0, error: 'threw: ' + e };
  }
  process.stdout.write(JSON.stringify(a) + '\n');
}
process.exit(0);
