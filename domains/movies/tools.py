"""The agent's catalog tools: each is one method whose signature and docstring are its schema and its dispatch."""

from __future__ import annotations

import functools
import json
import weakref
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from domains.movies.catalog import FIELD_KINDS, RESTRICTED_RATINGS, Catalog, CatalogItem
from domains.movies.search import result_record, search_index
from domains.movies.search_v1 import OkapiSearch
from domains.movies.tasks import Constraint, Task
from runner.core.errors import AgentFailure
from runner.core.memo import BoundedMemo
from runner.core.protocols import ToolOutcome
from runner.core.rules import DEFAULT_RULES, RuleSet, get_rules
from runner.core.toolkit import (
    DefinedTools,
    Stop,
    ToolError,
    checked_arguments,
    definition_of,
    malformed_outcome,
    parse_arguments,
    result_outcome,
    tool,
    unknown_tool_outcome,
    well_typed,
)
from runner.core.toolkit import json_text as _json
from runner.play.agent_config import ToolsetOptions

V1_TOOL_NAMES: tuple[str, ...] = (
    "search_catalog",
    "get_metadata",
    "check_availability",
    "get_user_history",
    "check_content_preference",
    "recommend",
)
FILTER_TOOL_NAME = "filter_catalog"
SEARCH_TOP_K = 20
FILTER_DEFAULT_LIMIT = 20
FILTER_MAX_LIMIT = 50
KNOWN_RATINGS: tuple[str, ...] = ("G", "PG", "PG-13", "R", "NC-17", "NR")
_ABSTAIN_WORDS = frozenset({"", "null", "none"})


def _json_v1(payload: Any) -> str:
    """The published harness's encoding: `json.dumps` defaults (ASCII escapes, ", " and ": ")."""
    return json.dumps(payload)


# The published harness's tool texts (rule set `tool_texts: v1`).
_V1_RESTRICTED = (
    "This rating is age-restricted. Confirm with the user that they are comfortable with mature "
    "content before recommending."
)
_V1_NOT_RESTRICTED = "This rating is not age-restricted."
_V1_ABSTAINED = "No recommendation made. Trial will end."


@dataclass(frozen=True)
class Encoded:
    """A tool result already encoded as its JSON text (`call` passes it through unchanged)."""

    text: str


class _Encodings:
    """One catalog's tool results that depend only on the catalog, each encoded once.

    A search result is a pure function of (catalog, query) and an item's metadata of (catalog, id);
    trials of a task, and tasks of a suite, ask the same ones again and again.
    """

    def __init__(self, catalog: Catalog) -> None:
        index = search_index(catalog)  # holds the items, not the catalog (a weak key below)
        all_items = catalog.items  # not the catalog itself, for the same reason
        okapi = functools.cache(lambda: OkapiSearch(all_items))  # built on the first v1 search
        items = {item.id: item for item in catalog.items}

        def search(query: str, top_k: int, okapi_ranking: bool, fields: bool, v1: bool) -> str:
            records = (okapi() if okapi_ranking else index).search(query, top_k=top_k)
            if fields:
                records = [{**r, **_constraint_fields(items[str(r["id"])])} for r in records]
            return _json_v1(records) if v1 else _json(records)

        self.search = functools.lru_cache(maxsize=4096)(search)
        self.metadata = functools.lru_cache(maxsize=4096)(
            lambda item_id: _json(items[item_id].model_dump(mode="json"))
        )
        self.metadata_v1 = functools.lru_cache(maxsize=4096)(
            lambda item_id: items[item_id].model_dump_json()
        )
        # Whole outcomes of the tools that read only the catalog, by (rule set, tool, argument
        # text): a repeated call (the same query, the same id) skips parsing and validation too.
        self.outcomes: BoundedMemo[tuple[str, str, str], ToolOutcome] = BoundedMemo(4096)


_ENCODINGS: weakref.WeakKeyDictionary[Catalog, _Encodings] = weakref.WeakKeyDictionary()
# The tools whose outcome depends on nothing but the catalog, the rule set and the arguments
# (get_user_history reads the task; recommend ends the trial).
_CATALOG_ONLY_TOOLS = frozenset(
    {
        "search_catalog",
        "get_metadata",
        "check_availability",
        "check_content_preference",
        FILTER_TOOL_NAME,
    }
)


# The fields a v2 search result adds to the v1 shape (the site names the whole shape once).
V2_SEARCH_FIELDS = ("runtime", "vote_count", "content_rating", "streaming_services")


def _constraint_fields(item: CatalogItem) -> dict[str, Any]:
    """The fields a v2 search result adds to the v1 shape (`V2_SEARCH_FIELDS`)."""
    return {
        "runtime": item.runtime,
        "vote_count": item.vote_count,
        "content_rating": item.content_rating,
        "streaming_services": list(item.streaming_services),
    }


def _encodings(catalog: Catalog) -> _Encodings:
    found = _ENCODINGS.get(catalog)
    if found is None:
        found = _ENCODINGS[catalog] = _Encodings(catalog)
    return found


class CatalogTools(DefinedTools):
    """The tools of one trial over one catalog and one task's user data.

    Each public tool is a method marked with `@tool`; `definitions()` lists them in order.
    """

    def __init__(
        self,
        catalog: Catalog,
        task: Task,
        options: ToolsetOptions | None = None,
        rules: RuleSet | None = None,
    ) -> None:
        self._catalog = catalog
        self._task = task
        self._options = options or ToolsetOptions()
        self._rules = rules or get_rules(DEFAULT_RULES)
        enabled = [
            getattr(type(self), name)
            for name in V1_TOOL_NAMES
            + ((FILTER_TOOL_NAME,) if self._options.filter_catalog else ())
        ]
        self._definitions = {d.name: d for d in (definition_of(f) for f in enabled)}

    # -- the Toolset protocol -------------------------------------------------------------

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        """Run one tool call. Every bad input becomes an error result, but for one case: under
        non-strict (v1) arguments, a value of a type the tool cannot use raises `AgentFailure`
        (the published tool raised there, failing the trial)."""
        if name in _CATALOG_ONLY_TOOLS and name in self._definitions and isinstance(arguments, str):
            # Same catalog, rules and argument text: the same outcome (tool errors included).
            return _encodings(self._catalog).outcomes.get_or_compute(
                (self._rules.name, name, arguments), lambda: self._run(name, arguments)
            )
        return self._run(name, arguments)

    @property
    def _v1_texts(self) -> bool:
        return self._rules.tool_texts == "v1"

    def _encode(self, payload: Any) -> str:
        return _json_v1(payload) if self._v1_texts else _json(payload)

    def _run(self, name: str, arguments: str | dict[str, Any]) -> ToolOutcome:
        parsed = parse_arguments(arguments)
        if isinstance(parsed, str):
            return malformed_outcome(parsed, arguments)
        definition = self._definitions.get(name)
        if definition is None and self._v1_texts:
            return ToolOutcome(
                content=_json_v1({"error": f"Unknown tool: {name}"}),
                is_error=True,
                arguments=parsed,
            )
        if definition is None:
            return unknown_tool_outcome(name, self.names, parsed)
        if self._rules.strict_arguments:
            checked = checked_arguments(definition, parsed)
            if isinstance(checked, ToolOutcome):
                return checked
            kwargs = checked
        else:
            # v1: unknown arguments are ignored and values passed on unchecked.
            fields = definition.args_model.model_fields
            missing = [k for k, f in fields.items() if f.is_required() and k not in parsed]
            if missing:
                text = (
                    "Missing required argument: {!r}"
                    if self._v1_texts
                    else "missing required argument {!r}"
                )
                return ToolOutcome(
                    content=self._encode({"error": text.format(missing[0])}),
                    is_error=True,
                    arguments=parsed,
                )
            kwargs = {k: parsed[k] for k in fields if k in parsed}
        method = getattr(self, name)
        try:
            result = method(**kwargs)
        except (TypeError, AttributeError) as exc:
            if self._rules.strict_arguments or well_typed(definition, kwargs):
                raise  # arguments of the right types: a bug of ours, an infra error
            # v1: a value of the wrong type (a list as an id, a number as a query) made the
            # published tool raise and the trial fail; here that is the agent's failure.
            raise AgentFailure(
                "MalformedToolArguments", f"{name}: an argument of the wrong type ({exc})"
            ) from None
        except ToolError as exc:
            return ToolOutcome(
                content=self._encode({"error": str(exc)}), is_error=True, arguments=parsed
            )
        if isinstance(result, Encoded):
            return ToolOutcome(content=result.text, arguments=parsed)
        return result_outcome(result, parsed, self._encode)

    # -- helpers ----------------------------------------------------------------------------

    def _item(self, item_id: str) -> CatalogItem:
        item = self._catalog.get(item_id)
        if item is None and self._v1_texts:
            raise ToolError(f"Movie not found: {item_id}")
        if item is None:
            raise ToolError(
                f"unknown item id {item_id!r}: ids look like 'tmdb_123'; "
                "use search_catalog to find them"
            )
        return item

    # -- the tools --------------------------------------------------------------------------

    @tool
    def search_catalog(
        self,
        query: Annotated[
            str, Field(description="Words to look for in titles, plots, genres, directors and cast")
        ],
    ) -> Encoded:
        """Search the movie catalog with free text.

        Returns up to 20 best-matching movies (id, title, genres, release_date, rating, overview;
        under the v2 rules also runtime, vote_count, content_rating and streaming_services), best
        first. Use get_metadata for every field of one movie (cast, director, ...).
        """
        rules = self._rules
        return Encoded(
            _encodings(self._catalog).search(
                query,
                SEARCH_TOP_K,
                rules.search_ranking == "okapi_whitespace",
                rules.search_shows_constraint_fields,
                self._v1_texts,
            )
        )

    @tool
    def get_metadata(
        self, item_id: Annotated[str, Field(description="A movie id such as 'tmdb_123'")]
    ) -> Encoded:
        """Return every catalog field of one movie, including runtime, content rating and services."""
        encodings = _encodings(self._catalog)
        if self._v1_texts:
            return Encoded(encodings.metadata_v1(self._item(item_id).id))
        return Encoded(encodings.metadata(self._item(item_id).id))

    @tool
    def check_availability(
        self,
        item_id: Annotated[str, Field(description="A movie id such as 'tmdb_123'")],
        services: Annotated[
            list[str], Field(description="Streaming service names to check, e.g. ['Netflix']")
        ],
    ) -> dict[str, bool]:
        """Tell, for each streaming service given, whether the movie can be streamed there."""
        item = self._item(item_id)
        return {service: service in item.streaming_services for service in services}

    @tool
    def get_user_history(
        self, user_id: Annotated[str, Field(description="The id of the user you are helping")]
    ) -> dict[str, Any]:
        """Return the movies the user has already watched (with titles) and the ratings they gave."""
        history = self._task.user_history.get(user_id)
        if history is None:
            raise ToolError(
                f"User not found: {user_id}" if self._v1_texts else f"unknown user id {user_id!r}"
            )
        if not self._rules.history_extras:
            unknown = "Unknown" if self._v1_texts else "unknown"
            titles = [(i, self._catalog.get(i)) for i in history.watched]
            return {
                "watched": [
                    {"id": i, "title": item.title if item else unknown} for i, item in titles
                ],
                "ratings": dict(history.ratings),
            }
        watched = []
        for item_id in history.watched:
            item = self._catalog.get(item_id)
            entry: dict[str, Any] = {"id": item_id, "title": item.title if item else "unknown"}
            if item_id in history.ratings:
                entry["user_rating"] = history.ratings[item_id]
            watched.append(entry)
        return {"user_id": user_id, "watched": watched, "ratings": dict(history.ratings)}

    @tool
    def check_content_preference(
        self,
        content_rating: Annotated[
            str, Field(description="A content rating: one of G, PG, PG-13, R, NC-17, NR")
        ],
    ) -> dict[str, Any]:
        """Check whether a content rating is age-restricted (R and NC-17 are).

        Call it with a movie's own rating before recommending any R or NC-17 movie, and make sure
        the user is comfortable with mature content.
        """
        if content_rating not in KNOWN_RATINGS and self._rules.unknown_rating_is_error:
            raise ToolError(
                f"unknown content rating {content_rating!r}; use one of {', '.join(KNOWN_RATINGS)}"
            )
        restricted = content_rating in RESTRICTED_RATINGS
        if self._v1_texts:
            message = _V1_RESTRICTED if restricted else _V1_NOT_RESTRICTED
            return {"restricted": restricted, "rating": content_rating, "message": message}
        message = (
            "Age-restricted rating: make sure the user is fine with mature content before you "
            "recommend it."
            if restricted
            else "Not age-restricted."
        )
        return {"rating": content_rating, "restricted": restricted, "message": message}

    @tool
    def recommend(
        self,
        item_id: Annotated[
            str | None,
            Field(description="The id of the movie you recommend, or null to abstain"),
        ] = None,
    ) -> Stop:
        """Commit to your final answer; this ends the conversation.

        Pass a movie id to recommend it. Pass no item_id (or null) to abstain when no movie in
        the catalog meets all of the user's requirements; an empty id abstains too. Under the v2
        rules so do a blank id (only spaces) and the words "null" and "none"; under v1 those are
        ids that match no movie, and the trial ends with one of them as the answer.
        """
        if not item_id or (
            self._rules.null_words_abstain
            and isinstance(item_id, str)
            and item_id.strip().lower() in _ABSTAIN_WORDS
        ):
            message = _V1_ABSTAINED if self._v1_texts else "No recommendation made; the trial ends."
            return Stop({"status": "abstained", "message": message}, stop="abstained")
        if self._rules.failed_recommend_ends_trial and self._catalog.get(item_id) is None:
            # v1: a recommend naming an unknown id (or a non-string) still ends the trial.
            error = (
                f"Movie not found: {item_id}"
                if self._v1_texts
                else f"unknown item id {item_id!r}; the trial ends with it as the answer"
            )
            return Stop(
                {"error": error},
                stop="recommended",
                item_id=item_id if isinstance(item_id, str) else json.dumps(item_id),
                is_error=True,
            )
        item = self._item(item_id)
        return Stop(
            {"status": "recommended", "id": item.id, "title": item.title},
            stop="recommended",
            item_id=item.id,
        )

    @tool
    def filter_catalog(
        self,
        predicates: Annotated[
            list[Constraint],
            Field(
                min_length=1,
                max_length=12,
                description="Conditions that must all hold, each {field, op, value}. Fields and "
                "the operators they take: runtime, rating, vote_count (numbers: <=, >=, ==, !=, "
                "in); release_date (ISO date: <=, >=, ==, !=); genres, cast, streaming_services "
                "(lists: contains, not_contains, contains_any); title, director, overview, id "
                "(text: ==, !=, in, contains, not_contains); content_rating (G, PG, PG-13, R, "
                "NC-17, NR: ==, !=, in); sponsored (true/false: ==, !=).",
            ),
        ],
        sort_by: Annotated[
            Literal["rating", "vote_count", "release_date", "runtime", "title"] | None,
            Field(
                description="Order of the results: numbers and dates descending, title "
                "ascending; catalog order when omitted"
            ),
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=FILTER_MAX_LIMIT, description="How many movies to return")
        ] = FILTER_DEFAULT_LIMIT,
    ) -> dict[str, Any]:
        """Find movies whose typed fields satisfy every predicate (structured filtering).

        Returns the total number of matches and up to `limit` of them with the fields filtered on.
        """
        matches = [item for item in self._catalog.items if all(p.holds(item) for p in predicates)]
        if sort_by == "title":
            matches.sort(key=lambda i: i.title.casefold())
        elif sort_by is not None:
            key = sort_by
            matches.sort(key=lambda i: getattr(i, key), reverse=True)
        shown_fields = [p.field for p in predicates if p.field in FIELD_KINDS]
        items = []
        for item in matches[:limit]:
            record = result_record(item)
            for f in shown_fields:
                value = getattr(item, f)
                record.setdefault(f, value.isoformat() if f == "release_date" else value)
            items.append(record)
        return {"total": len(matches), "returned": len(items), "items": items}


def build_toolset(
    catalog: Catalog,
    task: Task,
    options: ToolsetOptions | None = None,
    rules: RuleSet | None = None,
) -> CatalogTools:
    """The tools of one trial: exactly the six v1 tools unless `options` enable filter_catalog."""
    return CatalogTools(catalog, task, options, rules)
