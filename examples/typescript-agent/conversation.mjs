// What every step reads of the conversation whatever the domain: the text of a message, and the
// tool calls made so far with their parsed results.

/**
 * @typedef {import("./agent.mjs").ChatMessage} ChatMessage
 * @typedef {import("./agent.mjs").ToolUse} ToolUse
 */

/** The text of a message (a string, or a list of text parts). */
export function textOf(/** @type {ChatMessage} */ m) {
  const c = /** @type {unknown} */ (m.content);
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (p && typeof p === "object" ? String(p.text ?? "") : "")).join("");
  return "";
}

/** Every tool call of the conversation so far with its parsed result, in order. @returns {ToolUse[]} */
export function toolUses(/** @type {ChatMessage[]} */ messages) {
  /** @type {Map<string, string>} */
  const results = new Map();
  for (const m of messages) if (m.role === "tool" && m.tool_call_id) results.set(m.tool_call_id, textOf(m));
  /** @type {ToolUse[]} */
  const uses = [];
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) {
      let args = {};
      let result = null;
      try { args = JSON.parse(c.function.arguments || "{}"); } catch { args = {}; }
      try { result = JSON.parse(results.get(c.id) ?? "null"); } catch { result = null; }
      uses.push({ name: c.function.name, args, result });
    }
  }
  return uses;
}
