// What the shopping assistant understands of a grocery conversation: the shopper's stated needs,
// the hints in each decline, its verdicts, and the tool results so far. Rules for plain shopping
// English; nothing here sees the task. Every step re-reads the whole conversation (the protocol
// is stateless), so nothing is remembered between requests.

import { textOf } from "./conversation.mjs";
import { escape, statements } from "./needs.mjs";

/**
 * @typedef {import("./agent.mjs").ChatMessage} ChatMessage
 * @typedef {import("./agent.mjs").ToolUse} ToolUse
 * @typedef {{id: string, name: string, brand: string, price: number, quantity?: string,
 *            categories: string[], labels: string[], vegan: string, vegetarian: string,
 *            palm_oil: string, allergens: string[], traces: string[], nutriscore: string,
 *            nova_group: number, countries: string[], sponsored: boolean}} Product
 * @typedef {{kind: "order" | "return" | "substitution", productType: string | null,
 *            wantedName: string | null, quantity: number, returnProduct: string | null,
 *            returnOrder: string | null, returnReason: string, opening: string, allergies: Set<string>,
 *            vegan: boolean, vegetarian: boolean, budget: number | null, maxPrice: number | null,
 *            nutri: Set<string> | null, nutriBetterThan: number | null, labels: Set<string>,
 *            palmFree: boolean, novaMax: number | null, brandsOut: Set<string>,
 *            brandsOnly: Set<string>, country: string | null, hintMaxPrice: number | null,
 *            hintNovaMax: number | null, hintLabels: Set<string>, hintBrandsOut: Set<string>,
 *            hintPalmFree: boolean, cues: Set<string>, knownTopics: Set<string>,
 *            accepted: string | null, declined: Set<string>, confirmedOrder: boolean,
 *            confirmedReturn: boolean}} Heard
 */

const NUMBERS = /** @type {Record<string, number>} */ ({ one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 });
const NUTRI = "abcde";
/** Where the assistant's own messages put a product forward (see grocery.mjs). */
export const PROPOSAL_STARTS = ["I'd suggest ", "Your usual product is out of stock. Would you accept "];

/** Every product record seen in a tool result (search results and get_product), by id. */
export function knownProducts(/** @type {ToolUse[]} */ uses) {
  /** @type {Map<string, Product>} */
  const products = new Map();
  for (const u of uses) {
    if (u.name === "search_products" && u.result && Array.isArray(u.result.products)) {
      for (const p of u.result.products) if (p && p.id && !products.has(p.id)) products.set(p.id, p);
    }
    if (u.name === "get_product" && u.result && u.result.id) products.set(u.result.id, u.result);
  }
  return products;
}

/** The product an assistant message puts forward (the longest name pitched in it), if any. */
export function proposedIn(/** @type {string} */ text, /** @type {Map<string, Product>} */ products) {
  if (!PROPOSAL_STARTS.some((s) => text.startsWith(s))) return null;
  let best = null;
  for (const p of products.values()) {
    if (text.includes(`${p.name} by ${p.brand} (`) && (!best || p.name.length > best.name.length)) best = p;
  }
  return best;
}

/** Does a product meet everything heard so far (with `hints`: and what the declines hinted)? */
export function fits(/** @type {Heard} */ h, /** @type {Product} */ p, hints = true) {
  if (hints && !fitsHints(h, p)) return false;
  if ([...p.allergens, ...p.traces].some((a) => h.allergies.has(a))) return false;
  if (h.vegan && p.vegan !== "yes") return false;
  if (h.vegetarian && p.vegetarian !== "yes") return false;
  if (h.budget !== null && p.price * h.quantity > h.budget + 1e-9) return false;
  if (h.maxPrice !== null && p.price > h.maxPrice + 1e-9) return false;
  if (h.nutri !== null && !h.nutri.has(p.nutriscore)) return false;
  if ([...h.labels].some((l) => !p.labels.includes(l))) return false;
  if (h.palmFree && p.palm_oil !== "free") return false;
  if (h.novaMax !== null && p.nova_group > h.novaMax) return false;
  if (h.brandsOut.has(p.brand) || (h.brandsOnly.size && !h.brandsOnly.has(p.brand))) return false;
  if (h.country !== null && !p.countries.includes(h.country)) return false;
  return !(h.productType && !p.categories.map((c) => c.toLowerCase()).includes(h.productType.toLowerCase()));
}

function fitsHints(/** @type {Heard} */ h, /** @type {Product} */ p) {
  if (h.nutriBetterThan !== null && (!NUTRI.includes(p.nutriscore) || NUTRI.indexOf(p.nutriscore) >= h.nutriBetterThan)) return false;
  if (h.hintMaxPrice !== null && p.price > h.hintMaxPrice + 1e-9) return false;
  if (h.hintNovaMax !== null && p.nova_group > h.hintNovaMax) return false;
  if ([...h.hintLabels].some((l) => !p.labels.includes(l))) return false;
  if (h.hintBrandsOut.has(p.brand)) return false;
  return !(h.hintPalmFree && p.palm_oil !== "free");
}

/** The shopper's first message: what kind of request, which product, how many, and cues. */
function opening(/** @type {Heard} */ h, /** @type {string} */ text) {
  const low = text.toLowerCase();
  // A return names an order (its id holds a digit) and asks to send something back.
  const order = text.match(/\border (?:number |no\.? |#)?([A-Za-z0-9][\w-]*\d[\w-]*)/i);
  if (order && /\b(?:return|send(?:ing)? (?:\w+ )?back|go(?:es)? back|refund|take (?:\w+ )?back)/i.test(text)) {
    h.kind = "return";
    h.returnOrder = order[1];
    const m = text.match(/(?:return|send back|refund) the (.+?) (?:from|in) (?:my )?order\b|the (.+?) (?:from|in) (?:my )?order\b/i);
    h.returnProduct = m ? (m[1] ?? m[2]) : null;
    if (/damaged|broken|crushed|leak|torn|smashed|dented|split open/.test(low)) h.returnReason = "damaged";
    else if (/expired|past its date|out of date|best[- ]before|use[- ]by|gone off|stale|mouldy/.test(low)) h.returnReason = "expired";
    else if (/changed my mind|don't need|no longer (?:need|want)|didn't need/.test(low)) h.returnReason = "changed_mind";
    else if (/wrong|not what i ordered|isn't what i ordered|didn't order|different (?:item|product)/.test(low)) h.returnReason = "wrong_item";
    else h.returnReason = "changed_mind";
    return;
  }
  let m = text.match(/(\w+) packs? of (?:my usual|the|my regular) (.+?)(?: I always buy)?(?:, please)?[.?!]/);
  if (m && (low.includes("usual") || low.includes("always buy") || low.includes("regular"))) {
    h.kind = "substitution";
    h.quantity = NUMBERS[m[1].toLowerCase()] ?? 1;
    h.wantedName = m[2];
  }
  m = text.match(/(?:looking for|help me find|pick up|shopping for) (.+?)(?: today)?[.?!]/);
  if (m && h.kind === "order") h.productType = m[1].trim();
  m = low.match(/\b(one|two|three|four|five|six|\d{1,2}) (?:packs?|packets?)\b/);
  if (m) h.quantity = NUMBERS[m[1]] ?? Number(m[1]);
  const cueWords = {
    brand: "brand", "nutri-score": "nutriscore", farmed: "organic", oils: "palm_oil",
    processed: "processing", "where it's made": "origin", "where my food comes from": "origin",
    "pack size": "pack_size",
  };
  for (const [word, topic] of Object.entries(cueWords)) if (low.includes(word)) h.cues.add(topic);
}

const ACCEPT = /sounds good to me|works for me|i'll take|is just right|fine as a replacement|happy to have .+ instead|swap in/i;
// A plain yes (opening the reply, no "no", "not", "wait" … in it): enough after a question.
const YES = /^\W*(?:yes|yep|yeah|sure|ok(?:ay)?|perfect|great|confirmed|go ahead|please do|do it)\b/i;
const BUT = /\b(?:no|not|don't|doesn't|won't|wait|hold on|instead|rather|change|actually|but)\b|n't\b/i;
/** A yes to the last question: said in so many words (`phrases`), or plainly. */
function saysYes(/** @type {string} */ text, /** @type {RegExp} */ phrases) {
  return phrases.test(text) || (YES.test(text) && !BUT.test(text));
}

/** The shopper's answer to a product put forward: a yes, or a no with a hint of what was wrong. */
function verdict(/** @type {Heard} */ h, /** @type {string} */ text, /** @type {Product | null} */ proposed) {
  const low = text.toLowerCase();
  if (!proposed) return;
  if (saysYes(text, ACCEPT)) {
    h.accepted = proposed.id;
    return;
  }
  if (!(low.includes(proposed.name.toLowerCase()) || low.includes("that brand"))) return;
  h.declined.add(proposed.id);
  if ((low.includes("better nutri-score than") || low.includes("nutri-score isn't good enough")) && NUTRI.includes(proposed.nutriscore)) {
    h.nutriBetterThan = Math.min(NUTRI.indexOf(proposed.nutriscore), h.nutriBetterThan ?? 9);
  }
  if (low.includes("more processed than") || low.includes("less processed than")) {
    h.hintNovaMax = Math.min(proposed.nova_group - 1, h.hintNovaMax || 9);
  }
  if (low.includes("costs more than") || low.includes("pricier than")) {
    h.hintMaxPrice = Math.min(Math.round((proposed.price - 0.01) * 100) / 100, h.hintMaxPrice ?? 1e9);
  }
  if (low.includes("how it's farmed") || low.includes("farmed the way")) h.hintLabels.add("organic");
  if (low.includes("growers are paid") || low.includes("traded the way")) h.hintLabels.add("fair-trade");
  if (low.includes("brand of") || low.includes("that brand")) h.hintBrandsOut.add(proposed.brand);
  if (low.includes("oils in")) h.hintPalmFree = true;
  if (low.includes("doesn't suit how i eat")) h.vegan = true;
}

/** The index of the last assistant message whose text starts with one of `starts` (-1: none). */
export function lastSaid(/** @type {ChatMessage[]} */ messages, /** @type {string[]} */ starts) {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.role === "assistant" && starts.some((s) => textOf(m).startsWith(s))) return i;
  }
  return -1;
}

/**
 * Read the whole conversation. Each shopper reply is a verdict on the product the assistant
 * message just before it put forward; a yes to the order or the return counts only after the
 * assistant asked for it (`askedOrderAt`, `askedReturnAt`: message indexes, -1 if never).
 * @param {ChatMessage[]} messages
 * @param {Map<string, Product>} products
 * @param {number} askedOrderAt
 * @param {number} askedReturnAt
 * @returns {Heard}
 */
export function hear(messages, products, askedOrderAt, askedReturnAt) {
  /** @type {Heard} */
  const h = {
    kind: "order", productType: null, wantedName: null, quantity: 1, returnProduct: null,
    returnOrder: null, returnReason: "damaged", opening: "", allergies: new Set(), vegan: false,
    vegetarian: false, budget: null, maxPrice: null, nutri: null, nutriBetterThan: null,
    labels: new Set(), palmFree: false, novaMax: null, brandsOut: new Set(), brandsOnly: new Set(),
    country: null, hintMaxPrice: null, hintNovaMax: null, hintLabels: new Set(),
    hintBrandsOut: new Set(), hintPalmFree: false, cues: new Set(), knownTopics: new Set(),
    accepted: null, declined: new Set(), confirmedOrder: false, confirmedReturn: false,
  };
  const brands = new Set([...products.values()].map((p) => p.brand));
  const countries = new Set([...products.values()].flatMap((p) => p.countries ?? []));
  const names = [...products.values()].map((p) => p.name);
  let first = true;
  /** @type {string | null} */
  let lastAssistant = null;
  messages.forEach((m, i) => {
    if (m.role === "assistant" && textOf(m)) lastAssistant = textOf(m);
    if (m.role !== "user") return;
    const text = textOf(m);
    if (first) {
      first = false;
      h.opening = text;
      opening(h, text);
      statements(h, text, brands, countries, names);
      return;
    }
    statements(h, text, brands, countries, names);
    if (askedOrderAt >= 0 && i > askedOrderAt && saysYes(text, /please place the order|go ahead and order|please order it/i)) {
      h.confirmedOrder = true;
    }
    if (askedReturnAt >= 0 && i > askedReturnAt && saysYes(text, /please process that return|go ahead with the return|please return it/i)) {
      h.confirmedReturn = true;
    }
    verdict(h, text, lastAssistant === null ? null : proposedIn(lastAssistant, products));
    lastAssistant = null;
  });
  return h;
}

/**
 * The names (casefolded) that another name in the list equals or contains as whole words, or
 * that contain another: naming such a product in a message could name two.
 * @param {string[]} names
 */
export function ambiguousNames(names) {
  const folded = [...new Set(names.map((n) => n.toLowerCase()))].sort();
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const n of names) counts.set(n.toLowerCase(), (counts.get(n.toLowerCase()) ?? 0) + 1);
  const out = new Set([...counts].filter(([, k]) => k > 1).map(([n]) => n));
  for (const a of folded) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escape(a)}(?![\\p{L}\\p{N}_])`, "u");
    for (const b of folded) {
      if (a !== b && pattern.test(b)) {
        out.add(a);
        out.add(b);
      }
    }
  }
  return out;
}
