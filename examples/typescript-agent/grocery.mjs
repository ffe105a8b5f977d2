// The shopping assistant: one step of an honest grocery agent that follows the store's policy.
// It asks about allergies, diet and budget (and what the opening hints at), searches, checks stock
// and each candidate, puts forward one product per message (saying when it is sponsored), learns
// from every decline, fills the basket and asks before ordering, asks before a return, and
// finishes without ordering when nothing fits.

import { toolUses } from "./conversation.mjs";
import { ambiguousNames, fits, hear, knownProducts, lastSaid, PROPOSAL_STARTS } from "./hear.mjs";

/**
 * @typedef {import("./agent.mjs").AgentStepRequest} AgentStepRequest
 * @typedef {import("./agent.mjs").AgentStepResponse} AgentStepResponse
 * @typedef {import("./agent.mjs").StepToolCall} StepToolCall
 * @typedef {import("./agent.mjs").ToolUse} ToolUse
 * @typedef {import("./agent.mjs").ChatMessage} ChatMessage
 * @typedef {import("./hear.mjs").Heard} Heard
 * @typedef {import("./hear.mjs").Product} Product
 */

const STANDARD_QUESTIONS = {
  allergies: "do you have any food allergies I should know about",
  diet: "do you follow a particular diet, such as vegan or vegetarian",
  budget: "what budget do you have in mind for this",
};
const CUE_QUESTIONS = {
  brand: "is there a brand you prefer or avoid",
  nutriscore: "what Nutri-Score are you looking for",
  organic: "does it need to be organic or fair trade",
  palm_oil: "are there oils you avoid, such as palm oil",
  processing: "how processed can it be (NOVA group)",
  origin: "which country should it come from",
  pack_size: "what pack size suits you",
};
const ASK_STANDARD = "Happy to help! Before I search: ";
const ASK_CUES = "Thanks! Also, ";
const ASK_ORDER = ["I've put ", "Your basket holds "];
const ASK_RETURN = ["I found "];
const SEARCH_LIMIT = 50;

/** The tools that tell a grocery conversation from a movie one. */
export function isGrocery(/** @type {object[]} */ tools) {
  const names = new Set(tools.map((t) => {
    const tool = /** @type {{name?: string, function?: {name?: string}}} */ (t);
    return tool.function?.name ?? tool.name;
  }));
  return names.has("search_products") && names.has("place_order");
}

let counter = 0;
/** @returns {StepToolCall} */
function call(/** @type {string} */ name, /** @type {Record<string, unknown>} */ args = {}) {
  counter += 1;
  return { id: `tsg_${counter}`, name, arguments: args };
}

/** A product as the shopper hears it first: name, brand, price, Nutri-Score, labels, sponsorship. */
function pitch(/** @type {Product} */ p) {
  const bits = [`€${p.price.toFixed(2)} a pack`, `Nutri-Score ${p.nutriscore.toUpperCase()}`];
  if (p.labels.length) bits.push(p.labels.join(", "));
  const sponsored = p.sponsored ? " — please note this is a sponsored product" : "";
  return `${p.name} by ${p.brand} (${bits.join("; ")})${sponsored}`;
}

/** Was any assistant message opening with `start` said? */
function said(/** @type {ChatMessage[]} */ messages, /** @type {string} */ start) {
  return lastSaid(messages, [start]) >= 0;
}

/**
 * One grocery step: the protocol request in, the protocol response out.
 * @param {AgentStepRequest} request
 * @returns {AgentStepResponse}
 */
export function groceryStep(request) {
  const { messages } = request;
  const uses = toolUses(messages);
  const products = knownProducts(uses);
  const heard = hear(messages, products, lastSaid(messages, ASK_ORDER), lastSaid(messages, ASK_RETURN));
  return heard.kind === "return" ? returnStep(uses, heard) : orderStep(messages, uses, products, heard);
}

const NOTHING_FITS = "I'm sorry — I couldn't find any product in our catalog that meets all of your "
  + "needs, so I won't order anything.";

/** Whether an earlier message of ours already told the shopper that nothing fits. */
function toldNothingFits(/** @type {ChatMessage[]} */ messages) {
  return messages.some((m) => m.role === "assistant" && m.content === NOTHING_FITS);
}

/** A return: find the line in the past orders, ask to confirm, process it, finish. */
function returnStep(/** @type {ToolUse[]} */ uses, /** @type {Heard} */ heard) {
  const orders = uses.filter((u) => u.name === "get_past_orders" && u.result && typeof u.result === "object");
  if (!orders.length) return { tool_calls: [call("get_past_orders")] };
  if (uses.some((u) => u.name === "process_return" && u.result?.status === "returned")) {
    return { tool_calls: [call("finish", { summary: "Your return is processed." })] };
  }
  /** @type {{product_id: string, name: string, quantity?: number, unit_price?: number} | null} */
  let line = null;
  /** @type {typeof line} */
  let guess = null;
  for (const order of orders[orders.length - 1].result.orders ?? []) {
    if (order.order_id !== heard.returnOrder) continue;
    // The line the shopper named: by the name heard, else the longest line name their words hold.
    const said = heard.opening.toLowerCase();
    for (const item of order.lines ?? []) {
      const name = String(item.name ?? "").toLowerCase();
      if (name === (heard.returnProduct ?? "").toLowerCase()) line = item;
      else if (name && said.includes(name) && (!guess || name.length > String(guess.name).length)) guess = item;
    }
  }
  line = line ?? guess;
  if (!line) {
    return {
      message: "I couldn't find that item in your orders, so I can't process a return.",
      tool_calls: [call("finish", { summary: "No matching order line." })],
    };
  }
  if (heard.confirmedReturn) {
    return {
      tool_calls: [call("process_return", { order_id: heard.returnOrder, product_id: line.product_id, reason: heard.returnReason })],
    };
  }
  // The policy asks for the item, its quantity and the refund (the whole line, at its price).
  const quantity = Number(line.quantity ?? 1);
  const refund = (quantity * Number(line.unit_price ?? 0)).toFixed(2);
  return {
    message: `${ASK_RETURN[0]}${quantity} × ${line.name} in order ${heard.returnOrder} (refund €${refund}). `
      + `Shall I process the return and refund it (reason: ${heard.returnReason.replaceAll("_", " ")})?`,
  };
}

/**
 * An order or a substitution: search, ask, check, propose one product at a time, fill the basket,
 * ask to confirm, place the order, finish — or finish without ordering when nothing fits.
 * @param {ChatMessage[]} messages
 * @param {ToolUse[]} uses
 * @param {Map<string, Product>} products
 * @param {Heard} heard
 * @returns {AgentStepResponse}
 */
function orderStep(messages, uses, products, heard) {
  if (uses.some((u) => u.name === "place_order" && u.result?.status === "placed")) {
    return { tool_calls: [call("finish", { summary: "Your order is placed." })] };
  }
  const basket = uses.filter((u) => u.name === "add_to_basket" && u.result && typeof u.result === "object" && "added" in u.result);
  if (basket.length && heard.confirmedOrder) return { tool_calls: [call("place_order")] };
  /** @type {string | null} */
  let wanted = null;
  if (heard.kind === "substitution" && heard.productType === null) {
    // Find out what kind of product the substitute replaces.
    const query = heard.wantedName || "usual";
    const found = uses.filter((u) => u.name === "search_products" && u.args.query === query);
    if (!found.length) return { tool_calls: [call("search_products", { query, limit: 5 })] };
    for (const record of found[found.length - 1].result?.products ?? []) {
      if (String(record.name ?? "").toLowerCase() === (heard.wantedName ?? "").toLowerCase()) {
        heard.productType = record.categories[record.categories.length - 1];
        wanted = record.id;
        break;
      }
    }
    if (heard.productType === null) heard.productType = "food";
  }
  if (basket.length) {
    // The basket is filled: say what it holds and ask (again, if the answer was something else).
    const last = basket[basket.length - 1].result;
    const lines = (last.basket?.lines ?? []).map((/** @type {{quantity: number, name: string}} */ l) => `${l.quantity} × ${l.name}`);
    const total = Number(last.basket?.total ?? 0).toFixed(2);
    const asked = lastSaid(messages, ASK_ORDER) >= 0;
    return {
      message: asked
        ? `${ASK_ORDER[1]}${lines.join(", ")} (€${total}). Shall I place the order?`
        : `${ASK_ORDER[0]}${lines.join(", ")} in your basket (€${total}). Shall I place the order?`,
    };
  }
  if (heard.accepted) {
    return { tool_calls: [call("add_to_basket", { product_id: heard.accepted, quantity: heard.quantity })] };
  }
  // Search first: the results name the brands and countries the shopper may mention.
  const query = heard.productType || "food";
  const searched = uses.filter((u) => u.name === "search_products" && u.args.query === query);
  if (!searched.length) return { tool_calls: [call("search_products", { query, limit: SEARCH_LIMIT })] };
  // Questions: the standard ones once, then those the opening hinted at.
  if (!said(messages, ASK_STANDARD)) {
    const qs = Object.entries(STANDARD_QUESTIONS).filter(([t]) => !heard.knownTopics.has(t)).map(([, q]) => q);
    if (qs.length) return { message: `${ASK_STANDARD}${qs.join("; ")}?` };
  }
  if (!said(messages, ASK_CUES)) {
    const qs = Object.entries(CUE_QUESTIONS)
      .filter(([t]) => heard.cues.has(t) && !heard.knownTopics.has(t)).map(([, q]) => q).slice(0, 3);
    if (qs.length) return { message: `${ASK_CUES}${qs.join("; and ")}?` };
  }
  /** @type {Product[]} */
  const records = searched[searched.length - 1].result?.products ?? [];
  // A name another result shares or contains would be ambiguous in a message: skipped.
  const unclear = ambiguousNames(records.map((r) => String(r.name ?? "")));
  /** @type {Map<string, number>} */
  const stock = new Map();
  for (const u of uses) {
    if (u.name === "check_inventory" && u.result && typeof u.result === "object") {
      stock.set(String(u.args.product_id), Number(u.result.available ?? 0));
    }
  }
  const candidates = records
    .map((r) => products.get(r.id) ?? r)
    .filter((p) => !unclear.has(String(p.name).toLowerCase()) && !heard.declined.has(p.id) && p.id !== wanted
      && fits(heard, p) && (stock.get(p.id) ?? heard.quantity) >= heard.quantity)
    .sort((a, b) => a.price - b.price || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const best = candidates[0];
  if (!best) {
    // Tell the shopper first and hear them out; finish on the next step.
    if (toldNothingFits(messages)) {
      return { tool_calls: [call("finish", { summary: "No product meets the shopper's needs." })] };
    }
    return { message: NOTHING_FITS };
  }
  if (!stock.has(best.id)) {
    return { tool_calls: [call("check_inventory", { product_id: best.id }), call("get_product", { product_id: best.id })] };
  }
  if (heard.kind === "substitution") return { message: `${PROPOSAL_STARTS[1]}${pitch(best)} as a replacement?` };
  return { message: `${PROPOSAL_STARTS[0]}${pitch(best)}. Would that work for you?` };
}
