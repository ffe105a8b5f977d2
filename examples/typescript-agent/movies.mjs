// The movie recommender: one step of an honest agent that follows the movie policy. It reads the
// watch history, asks what the person wants, searches, checks every candidate's metadata, checks
// age-restricted ratings and availability, proposes one film at a time, learns from each "no", and
// recommends through the tool — or abstains honestly when nothing fits.

import { toolUses } from "./conversation.mjs";

/**
 * @typedef {import("./agent.mjs").ChatMessage} ChatMessage
 * @typedef {import("./agent.mjs").AgentStepRequest} AgentStepRequest
 * @typedef {import("./agent.mjs").AgentStepResponse} AgentStepResponse
 * @typedef {import("./agent.mjs").StepToolCall} StepToolCall
 * @typedef {import("./agent.mjs").ToolUse} ToolUse
 * @typedef {{id: string, title: string, release_date: string, runtime: number, genres: string[],
 *            rating: number, vote_count: number, streaming_services: string[], sponsored: boolean,
 *            content_rating: string}} Movie
 * @typedef {{genres: string[], services: string[], maxRuntime: number, minRuntime: number,
 *            minRating: number, maxRating: number, minDate: string, maxDate: string,
 *            maxLevel: number, minLevel: number, minVotes: number, maxVotes: number,
 *            noSponsored: boolean, rejected: Set<string>}} Wishes
 */

const GENRES = [
  "Action", "Adventure", "Animation", "Comedy", "Crime", "Documentary", "Drama", "Family",
  "Fantasy", "History", "Horror", "Music", "Mystery", "Romance", "Science Fiction",
  "TV Movie", "Thriller", "War", "Western",
];
const LEVELS = ["G", "PG", "PG-13", "R", "NC-17"];
const RESTRICTED = new Set(["R", "NC-17"]);
// Services a person may name before we have seen them in any film's metadata.
const KNOWN_SERVICES = ["Netflix", "Hulu", "Amazon Prime Video", "HBO Max", "Disney+", "Paramount+",
  "Peacock", "Apple TV+", "Starz", "Shudder", "MUBI", "AMC+", "Tubi", "Kanopy", "Criterion Channel"];
const MAX_PROPOSALS = 6;
const METADATA_BATCH = 20;
// The standard track allows 80 tool calls per trial; stop fetching metadata well before that.
const METADATA_CALLS_MAX = 40;
// The person's patience is finite (they leave after 2-4 films turned down): after one "no",
// commit to the best remaining fit instead of putting yet another title to them.
const PROPOSALS_BEFORE_COMMIT = 1;
const ACCEPT = /\b(yes|yeah|sure|perfect|sounds (good|great)|i'?ll take it|i'?d watch|lock it in|go (ahead|with it)|make it official|let'?s do it|works for me)\b/i;
const NO_PREFERENCE = /(anything specific|nothing particular|easy on|no preference|don'?t mind|don'?t care|not fussy)/;
const ABSTAIN_ASK = "I looked carefully, and nothing in the catalog meets everything you asked for.";

/** Movies whose metadata we fetched, by id. */
function knownMovies(/** @type {ToolUse[]} */ uses) {
  /** @type {Map<string, Movie>} */
  const movies = new Map();
  for (const u of uses) if (u.name === "get_metadata" && u.result && u.result.id) movies.set(u.result.id, u.result);
  return movies;
}

/** What the person said they want, from everything they wrote (and how they turned films down). */
function wishes(/** @type {ChatMessage[]} */ messages, /** @type {Map<string, Movie>} */ movies) {
  const userText = messages.filter((m) => m.role === "user").map((m) => m.content ?? "").join("\n");
  const lower = userText.toLowerCase();
  const allServices = new Set([...KNOWN_SERVICES, ...[...movies.values()].flatMap((m) => m.streaming_services)]);
  /** @type {Wishes} */
  const w = {
    genres: GENRES.filter((g) => lower.includes(g.toLowerCase()) && !new RegExp(`(no|not|without|hate)[^.]{0,20}${g.toLowerCase()}`).test(lower)),
    services: servicesWanted(lower, allServices),
    maxRuntime: Infinity, minRuntime: 0, minRating: 0, maxRating: 10,
    minDate: "0000-00-00", maxDate: "9999-99-99", maxLevel: LEVELS.length, minLevel: 0,
    minVotes: 0, maxVotes: Infinity, noSponsored: false, rejected: new Set(),
  };
  for (const m of lower.matchAll(/([^.]{0,40}?)(\d+)\s*min(?:utes?)?([^.]{0,25})/g)) {
    const [, before, n, after] = m;
    if (/at least|or more|or longer|minimum/.test(before + after) && !/no (more|longer)/.test(before)) {
      w.minRuntime = Math.max(w.minRuntime, Number(n));
    } else if (/under|less|short|most|longer than|more than|max|up to|within|no more/.test(before + after)) {
      w.maxRuntime = Math.min(w.maxRuntime, Number(n));
    }
  }
  const hours = lower.match(/(?:under|at most|no (?:more|longer) than|longer than)\s+(?:about\s+)?(\w+) hours?/);
  if (hours) w.maxRuntime = Math.min(w.maxRuntime, 60 * (Number(hours[1]) || { one: 1, two: 2, three: 3 }[hours[1]] || 99));
  const rating = lower.match(/(?:rated|rating|score)[^.\d]{0,25}(\d+(?:\.\d+)?)/);
  if (rating && /(at least|above|over|higher|or more|or better|minimum)/.test(lower)) w.minRating = Number(rating[1]);
  const from = lower.match(/from (\d{4}) or later|after (\d{4})|released (?:on or after|since) (\d{4})/);
  if (from) w.minDate = `${from[1] ?? from[2] ?? from[3]}-01-01`;
  const before = lower.match(/from (\d{4}) or earlier|before (\d{4})/);
  if (before) w.maxDate = before[1] ? `${before[1]}-12-31` : `${Number(before[2]) - 1}-12-31`;
  for (const code of LEVELS) {
    const c = code.toLowerCase();
    if (new RegExp(`(no|nothing|not)[^.]{0,15}\\b${c}\\b`).test(lower)) w.maxLevel = Math.min(w.maxLevel, LEVELS.indexOf(code));
    if (new RegExp(`\\b${c}\\b or (lower|below|less|under)`).test(lower)) w.maxLevel = Math.min(w.maxLevel, LEVELS.indexOf(code) + 1);
  }
  if (/\b(kids|children|family)\b/.test(lower)) w.maxLevel = Math.min(w.maxLevel, LEVELS.indexOf("PG") + 1);
  // Learn from each film turned down: the reply after a proposal says (vaguely) what was wrong.
  for (const [movie, reply] of proposalReplies(messages, movies)) {
    if (!reply || ACCEPT.test(reply)) continue;
    // Only the sentences that object: "I'm easy on how well reviewed it is" is not a complaint.
    const r = reply.toLowerCase().split(/(?<=[.!?])\s+/).filter((x) => !NO_PREFERENCE.test(x)).join(" ");
    w.rejected.add(movie.id);
    if (/too long|runs a bit long/.test(r)) w.maxRuntime = Math.min(w.maxRuntime, movie.runtime - 1);
    if (/too short|bit short|more substantial/.test(r)) w.minRuntime = Math.max(w.minRuntime, movie.runtime + 1);
    if (/review|well reviewed/.test(r)) w.minRating = Math.max(w.minRating, movie.rating + 0.01);
    if (/acclaimed|heavy/.test(r)) w.maxRating = Math.min(w.maxRating, movie.rating - 0.01);
    if (/too old/.test(r) && movie.release_date > w.minDate) w.minDate = movie.release_date;
    if (/too recent/.test(r) && movie.release_date < w.maxDate) w.maxDate = movie.release_date;
    const level = LEVELS.indexOf(movie.content_rating);
    if (/intense|mature/.test(r) && level >= 0) w.maxLevel = Math.min(w.maxLevel, level);
    if (/tame/.test(r) && level >= 0) w.minLevel = Math.max(w.minLevel, level + 1);
    if (/obscure/.test(r)) w.minVotes = Math.max(w.minVotes, movie.vote_count + 1);
    if (/mainstream/.test(r)) w.maxVotes = Math.min(w.maxVotes, movie.vote_count - 1);
    if (/promotion|sponsored/.test(r)) w.noSponsored = true;
  }
  return w;
}

/** The services the person can (or insists on) watching with, among those the catalog names. */
function servicesWanted(/** @type {string} */ lower, /** @type {Set<string>} */ all) {
  const named = (/** @type {string} */ text) => [...all].filter((s) => text.includes(s.toLowerCase()));
  const insisted = lower.split(/(?<=[.!?])\s+/).filter((x) => /(has to|must|needs to) be on|only on/.test(x));
  const required = named(insisted.join(" "));
  return required.length ? required : named(lower);
}

/** Each film we proposed, with the person's reply to it (undefined while unanswered). */
function proposalReplies(/** @type {ChatMessage[]} */ messages, /** @type {Map<string, Movie>} */ movies) {
  /** @type {[Movie, string | undefined][]} */
  const out = [];
  messages.forEach((m, i) => {
    if (m.role !== "assistant" || !m.content) return;
    const title = m.content.match(/How about "([^"]+)"/);
    if (!title) return;
    const movie = [...movies.values()].find((x) => x.title === title[1]);
    if (!movie) return;
    const reply = messages.slice(i + 1).find((n) => n.role === "user");
    out.push([movie, reply?.content ?? undefined]);
  });
  return out;
}

/** Does a movie meet every wish we know of? */
function fits(/** @type {Movie} */ m, /** @type {Wishes} */ w, /** @type {Set<string>} */ watched) {
  const level = LEVELS.indexOf(m.content_rating);
  return !watched.has(m.id) && !w.rejected.has(m.id)
    && w.genres.every((g) => m.genres.includes(g))
    && (w.services.length === 0 || m.streaming_services.some((s) => w.services.includes(s)))
    && m.runtime <= w.maxRuntime && m.runtime >= w.minRuntime
    && m.rating >= w.minRating && m.rating <= w.maxRating
    && m.release_date >= w.minDate && m.release_date <= w.maxDate
    && (level < 0 || (level < w.maxLevel && level >= w.minLevel))
    && m.vote_count >= w.minVotes && m.vote_count <= w.maxVotes
    && !(w.noSponsored && m.sponsored);
}

/** Searches in the order we try them: the wanted genres, the person's words, then wider nets. */
function queryPlan(/** @type {Wishes} */ w, /** @type {string} */ lastUser) {
  const wanted = w.genres.map((g) => g.toLowerCase());
  const others = GENRES.map((g) => g.toLowerCase()).filter((g) => !wanted.includes(g));
  const plan = [
    wanted.join(" "),
    ...wanted,
    ...wanted.flatMap((g) => others.map((o) => `${g} ${o}`)),
    ...(wanted.length ? [] : [lastUser, ...others]),
    "movie",
  ];
  return [...new Set(plan.filter((q) => q && q.trim()))].slice(0, 24);
}

let counter = 0;
/** @returns {StepToolCall} */
function call(/** @type {string} */ name, /** @type {Record<string, unknown>} */ args) {
  counter += 1;
  return { id: `ts_${counter}`, name, arguments: args };
}

/**
 * One movie step: the protocol request in, the protocol response out. Pure apart from call ids.
 * @param {AgentStepRequest} request
 * @returns {AgentStepResponse}
 */
export function moviesStep(request) {
  const { messages, user_id: userId } = request;
  const uses = toolUses(messages);
  const history = uses.find((u) => u.name === "get_user_history");
  if (!history) return { tool_calls: [call("get_user_history", { user_id: userId })] };
  const watched = new Set((history.result?.watched ?? []).map((/** @type {{id: string}} */ x) => x.id));

  const spoke = messages.slice(1).filter((m) => m.role === "assistant" && m.content);
  // Three questions a message at most: people answer a few at a time, not a whole form.
  if (spoke.length === 0) {
    return {
      message: "Happy to help! To find the right film: what kind of movie are you in the mood for, "
        + "how long can it be, and which streaming services do you have?",
    };
  }
  if (spoke.length === 1) {
    return { message: "Thanks! Does the age rating matter, and how well reviewed should it be?" };
  }
  const movies = knownMovies(uses);
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const lastSpoke = spoke[spoke.length - 1].content ?? "";

  // We said nothing fits; end honestly, whatever the reply.
  if (lastSpoke.startsWith(ABSTAIN_ASK)) return { tool_calls: [call("recommend", { item_id: null })] };

  // The person accepted the film we proposed last: commit to it through the tool.
  const replies = proposalReplies(messages, movies);
  const last = replies[replies.length - 1];
  if (last && last[1] !== undefined && ACCEPT.test(last[1]) && lastSpoke.includes(`"${last[0].title}"`)) {
    return { tool_calls: [call("recommend", { item_id: last[0].id })] };
  }

  const w = wishes(messages, movies);
  const searched = new Set(uses.filter((u) => u.name === "search_catalog").map((u) => String(u.args.query)));
  const plan = queryPlan(w, lastUser).filter((q) => !searched.has(q));
  if (searched.size === 0) return { tool_calls: plan.slice(0, 3).map((query) => call("search_catalog", { query })) };
  const hits = uses.filter((u) => u.name === "search_catalog" && Array.isArray(u.result)).flatMap((u) => u.result);
  const unfetched = [...new Set(hits.map((/** @type {{id: string}} */ h) => h.id))].filter((id) => !movies.has(id) && !watched.has(id));
  const fetched = uses.filter((u) => u.name === "get_metadata").length;
  if (unfetched.length && fetched < METADATA_CALLS_MAX) {
    return { tool_calls: unfetched.slice(0, METADATA_BATCH).map((id) => call("get_metadata", { item_id: id })) };
  }

  // Availability checks we already made rule films out too.
  const unavailable = new Set(
    uses.filter((u) => u.name === "check_availability" && u.result && Object.values(u.result).every((v) => v === false))
      .map((u) => String(u.args.item_id)),
  );
  const candidates = [...movies.values()]
    .filter((m) => fits(m, w, watched) && !unavailable.has(m.id))
    .sort((a, b) => b.rating - a.rating || b.vote_count - a.vote_count || a.id.localeCompare(b.id));
  const best = candidates[0];
  if (!best && plan.length && replies.length < MAX_PROPOSALS && uses.length < 60) {
    // Nothing known fits yet: look further before giving up.
    return { tool_calls: plan.slice(0, 3).map((query) => call("search_catalog", { query })) };
  }
  if (!best || replies.length >= MAX_PROPOSALS) {
    return { message: `${ABSTAIN_ASK} Rather than stretch, I won't recommend something that breaks one of your requirements.` };
  }
  if (RESTRICTED.has(best.content_rating)
    && !uses.some((u) => u.name === "check_content_preference" && u.args.content_rating === best.content_rating)) {
    return { tool_calls: [call("check_content_preference", { content_rating: best.content_rating })] };
  }
  const services = w.services.length ? w.services : best.streaming_services;
  if (!uses.some((u) => u.name === "check_availability" && u.args.item_id === best.id) && services.length) {
    return { tool_calls: [call("check_availability", { item_id: best.id, services })] };
  }
  const year = best.release_date.slice(0, 4);
  const sponsored = best.sponsored ? " Heads-up: this one is a sponsored pick." : "";
  if (replies.length >= PROPOSALS_BEFORE_COMMIT && w.services.length) {
    return {
      message: `Then I'd go with "${best.title}" (${year}).${sponsored}`,
      tool_calls: [call("recommend", { item_id: best.id })],
    };
  }
  const mature = RESTRICTED.has(best.content_rating) ? ` It is rated ${best.content_rating}; is that all right?` : "";
  return {
    message: `How about "${best.title}" (${year}), ${best.genres.join("/").toLowerCase()}, `
      + `${best.runtime} minutes, rated ${best.rating}?${sponsored}${mature}`,
  };
}
