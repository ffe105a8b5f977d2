// The needs a shopper states, heard from the store's own vocabulary rather than from fixed
// sentences: allergen names, diet words, euro amounts and what they bound, Nutri-Score letters,
// label words, palm oil, NOVA groups, and the brand and country names the search results carry.
// Each sentence is read on its own, so any wording that names the topic and its value is heard.

/** @typedef {import("./hear.mjs").Heard} Heard */

/** The allergen tags of the tools' `allergens` and `traces` fields, with the plain words for them. */
const ALLERGEN_WORDS = /** @type {[string, string[]][]} */ ([
  ["gluten", ["gluten"]], ["crustaceans", ["crustaceans?", "shellfish"]], ["eggs", ["eggs?"]],
  ["fish", ["fish"]], ["peanuts", ["peanuts?"]], ["soybeans", ["soybeans?", "soya?"]],
  ["milk", ["milk", "dairy", "lactose"]], ["nuts", ["nuts", "tree nuts"]], ["celery", ["celery"]],
  ["mustard", ["mustard"]], ["sesame-seeds", ["sesame(?: seeds?)?"]],
  ["sulphur-dioxide-and-sulphites", ["sulphites?", "sulfites?", "sulphur dioxide"]],
  ["lupin", ["lupin"]], ["molluscs", ["molluscs?"]],
]);
const NUTRI = "abcde";

/** Words, heard case-insensitively as whole words or phrases. */
function words(/** @type {string[]} */ list) {
  return new RegExp(`\\b(?:${list.join("|")})\\b`, "i");
}

// A sentence that says a topic does not matter (or can't be put into words) states no need.
const SAYS_NOTHING = words(["no particular preference", "don't mind", "do not mind", "easy on",
  "hard to say", "can't really put", "anything is fine", "doesn't matter", "not fussy", "no preference"]);
const TOPIC_WORDS = /** @type {[string, RegExp][]} */ ([
  ["brand", /\bbrands?\b/i], ["nutriscore", /nutri-?score/i], ["organic", /\b(?:farming|organic|labels?)\b/i],
  ["palm_oil", /\b(?:palm oil|oils?)\b/i], ["processing", /\bprocess(?:ed|ing)\b|\bnova\b/i],
  ["origin", /\bwhere it comes from\b|\borigin\b|\bcountry\b/i], ["diet", /\bdiet\b/i],
  ["budget", /\bbudget\b|\bprice\b/i], ["allergies", /\ballerg/i],
]);
const AMOUNT = /€\s?(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s?(?:euros?|eur)\b/gi;
const PER_PACK = words(["a pack", "per pack", "each", "apiece", "a packet", "per packet", "a single pack", "per item"]);
const TOTAL = words(["total", "in all", "altogether", "all told", "overall", "for the lot", "for everything",
  "whole order", "whole basket", "budget", "spend", "all together"]);
const NOT_WANTED = words(["no", "not", "zero", "without", "free of", "free from", "avoid", "skip", "won't", "don't",
  "never", "nothing with", "palm[- ]oil[- ]free"]);
const BRAND_OUT = ["not", "no", "never", "anything but", "anything except", "nothing from", "nothing by",
  "avoid", "skip", "won't buy", "don't buy", "won't have", "don't want", "rather not have", "rather avoid"];
const BRAND_ONLY = ["only buy", "only want", "only", "stick to", "stick with", "insist on", "always buy",
  "has to be", "must be", "needs to be", "should be", "have to be"];
const ORIGIN = ["come from", "comes from", "made in", "produced in", "packed in", "grown in", "sourced in",
  "sourced from", "from"];
// What may stand between such words and the name ("not anything by Acme", "only the Acme ones").
const BETWEEN = "(?:(?:any|anything|products?|stuff|items?|the|from|by|of|made|honestly|just|really|always)\\s+)*";

/** Escape a string for use inside a regular expression. */
export function escape(/** @type {string} */ s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Does `text` name `name` right after one of `lead` (allowing a few filler words)? */
function after(/** @type {string[]} */ lead, /** @type {string} */ name, /** @type {string} */ text) {
  const pattern = `\\b(?:${lead.join("|")})\\s+${BETWEEN}${escape(name)}(?![\\p{L}\\p{N}_])`;
  return new RegExp(pattern, "iu").test(text);
}

/** The Nutri-Score letters a sentence accepts ("A or B", "B or better", "at least C"), if any. */
function nutriLetters(/** @type {string} */ sentence) {
  if (!/nutri-?score/i.test(sentence) || /\bbetter nutri-?score\b|\bnot nutri/i.test(sentence)) return null;
  // Letters standing alone. "A" is the article when a word follows it, unless a grade word
  // ("Nutri-Score A", "of A", "B or A") comes right before it or "or"/"and" right after.
  const said = [...sentence.matchAll(/(?<![\p{L}\p{N}'-])([A-Ea-e])(?![\p{L}\p{N}'-])/gu)]
    .filter((m) => !/^a$/i.test(m[1])
      || /(?:score|of|grade|letter|rated|or|and|,)\s*$/i.test(sentence.slice(0, m.index))
      || !/^\s+(?!or\b|and\b)\p{L}/u.test(sentence.slice(m.index + 1)))
    .map((m) => m[1].toLowerCase());
  if (!said.length) return null;
  if (/\bor (?:better|above|higher)\b|\bat least\b|\bno worse than\b|\bminimum\b/i.test(sentence)) {
    const worst = Math.max(...said.map((l) => NUTRI.indexOf(l)));
    return new Set(NUTRI.slice(0, worst + 1));
  }
  return new Set(said);
}

/**
 * Hear the needs stated in one shopper message, sentence by sentence. `brands` and `countries`
 * are the names the search results carry (a name the store never showed can't be heard).
 * @param {Heard} h
 * @param {string} text
 * @param {Set<string>} brands
 * @param {Set<string>} countries
 * @param {Iterable<string>} names the product names seen so far
 */
export function statements(h, text, brands, countries, names) {
  // Product names are not needs: "Not Vegan Oat Bites, sorry" rules out a product, not meat.
  let plain = text;
  for (const name of [h.productType, h.wantedName, ...names]) {
    if (name) plain = plain.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escape(name)}(?![\\p{L}\\p{N}_])`, "giu"), "it");
  }
  for (const sentence of plain.split(/(?<=[.!?;])\s+|\s+[—–]\s+/)) {
    if (SAYS_NOTHING.test(sentence)) {
      for (const [topic, pattern] of TOPIC_WORDS) if (pattern.test(sentence)) h.knownTopics.add(topic);
    } else if (sentence.trim()) {
      needs(h, sentence, brands, countries);
    }
  }
}

/** @param {Heard} h @param {string} s @param {Set<string>} brands @param {Set<string>} countries */
function needs(h, s, brands, countries) {
  const low = s.toLowerCase();
  if (/\ballerg|\bintoleran|\btraces?\b|may[- ]contain|can(?:no|')t (?:have|eat|tolerate)/.test(low)) {
    for (const [tag, said] of ALLERGEN_WORDS) {
      if (words(said).test(low)) { h.allergies.add(tag); h.knownTopics.add("allergies"); }
    }
  }
  for (const diet of /** @type {const} */ (["vegan", "vegetarian"])) {
    if (words([diet]).test(low) && !/\bnot (?:a )?(?:vegan|vegetarian)\b|doesn't suit/.test(low)) {
      h[diet] = true;
      h.knownTopics.add("diet");
    }
  }
  for (const m of s.matchAll(AMOUNT)) {
    const amount = Number(m[1] ?? m[2]);
    if (PER_PACK.test(s) && !/\b(?:in total|overall|altogether|all told)\b/i.test(s)) h.maxPrice = amount;
    else if (TOTAL.test(s) || /\b(?:up to|at most|no more than|cap|limit|max(?:imum)?)\b/i.test(s)) h.budget = amount;
    else continue;
    h.knownTopics.add("budget");
  }
  const nutri = nutriLetters(s);
  if (nutri) { h.nutri = nutri; h.knownTopics.add("nutriscore"); }
  // A decline's hint ("not farmed the way I like") is read by the verdict, not here.
  if (!/wasn't labelled|farmed the way|how it's farmed|traded the way|growers are paid/.test(low)) {
    if (/\borganic\b/.test(low)) { h.labels.add("organic"); h.knownTopics.add("organic"); }
    if (/\bfair[- ]?trade\b/.test(low)) { h.labels.add("fair-trade"); h.knownTopics.add("organic"); }
  }
  if (/\bpalm\b/.test(low) && NOT_WANTED.test(low)) { h.palmFree = true; h.knownTopics.add("palm_oil"); }
  const nova = low.match(/\bnova(?: group)?\s*([1-4])\b/);
  if (nova) { h.novaMax = Number(nova[1]); h.knownTopics.add("processing"); }
  for (const brand of brands) {
    if (after(BRAND_OUT, brand, s)) { h.brandsOut.add(brand); h.knownTopics.add("brand"); }
    else if (after(BRAND_ONLY, brand, s)) { h.brandsOnly.add(brand); h.knownTopics.add("brand"); }
  }
  for (const country of countries) {
    if (after(ORIGIN, country, s) && !/\bnot\b|\bnothing\b|\bavoid\b|\bexcept\b/.test(low)) {
      h.country = country;
      h.knownTopics.add("origin");
    }
  }
}
