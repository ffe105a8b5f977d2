"""A deterministic fictional movie universe and `build_world(date)`, the view of it on one date."""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from catalog_pipeline.tmdb.fixture_world import words

FIRST_MOVIE_ID = 9_100_001
FIRST_PERSON_ID = 9_800_001
UNIVERSE_START = dt.date(2025, 1, 3)
UNIVERSE_END = dt.date(2027, 1, 29)
UNIVERSE_SIZE = 525
ANNOUNCE_DAYS = 30  # titles releasing within this many days after the world date are listed
_SEED = "taurec-fixture-world-v1"

# TMDB's /genre/movie/list, ids and names as TMDB uses them.
GENRES: dict[int, str] = {
    28: "Action",
    12: "Adventure",
    16: "Animation",
    35: "Comedy",
    80: "Crime",
    99: "Documentary",
    18: "Drama",
    10751: "Family",
    14: "Fantasy",
    36: "History",
    27: "Horror",
    10402: "Music",
    9648: "Mystery",
    10749: "Romance",
    878: "Science Fiction",
    10770: "TV Movie",
    53: "Thriller",
    10752: "War",
    37: "Western",
}
_GENRE_ID = {name: gid for gid, name in GENRES.items()}

_PRIMARY_GENRE_WEIGHTS: dict[str, float] = {
    "Drama": 18, "Comedy": 13, "Thriller": 11, "Horror": 11, "Action": 10, "Documentary": 5,
    "Animation": 5, "Romance": 5, "Science Fiction": 5, "Crime": 4, "Mystery": 3,
    "Adventure": 3, "Family": 3, "Fantasy": 2, "Music": 1, "History": 1, "War": 1,
    "Western": 0.5, "TV Movie": 1,
}  # fmt: skip
_SECONDARY: dict[str, tuple[str, ...]] = {
    "Drama": ("Romance", "Crime", "History", "Music", "Comedy", "Family", "War", "Mystery"),
    "Comedy": ("Romance", "Drama", "Family", "Crime", "Music", "Adventure"),
    "Thriller": ("Crime", "Mystery", "Drama", "Action", "Horror", "Science Fiction"),
    "Horror": ("Thriller", "Mystery", "Fantasy", "Comedy", "Science Fiction"),
    "Action": ("Adventure", "Thriller", "Crime", "Science Fiction", "Comedy", "War"),
    "Documentary": ("Music", "History", "Drama"),
    "Animation": ("Family", "Comedy", "Adventure", "Fantasy", "Music"),
    "Romance": ("Comedy", "Drama", "Music"),
    "Science Fiction": ("Action", "Thriller", "Adventure", "Drama", "Horror", "Mystery"),
    "Crime": ("Thriller", "Drama", "Mystery", "Action", "Comedy"),
    "Mystery": ("Thriller", "Crime", "Horror", "Drama"),
    "Adventure": ("Action", "Fantasy", "Family", "Comedy", "Science Fiction"),
    "Family": ("Comedy", "Adventure", "Fantasy", "Animation"),
    "Fantasy": ("Adventure", "Family", "Drama", "Romance", "Action"),
    "Music": ("Drama", "Documentary", "Romance", "Comedy"),
    "History": ("Drama", "War"),
    "War": ("Drama", "History", "Action"),
    "Western": ("Drama", "Action", "Adventure"),
    "TV Movie": ("Romance", "Comedy", "Family", "Drama"),
}

# Raw TMDB US flat-rate providers: name -> (provider_id, display_priority).
PROVIDERS: dict[str, tuple[int, int]] = {
    "Netflix": (8, 0),
    "Netflix Standard with Ads": (1796, 110),
    "Amazon Prime Video": (9, 2),
    "Amazon Prime Video with Ads": (2100, 150),
    "Hulu": (15, 4),
    "Disney Plus": (337, 5),
    "Max": (1899, 3),
    "Max Amazon Channel": (1825, 60),
    "Paramount Plus Essential": (2303, 7),
    "Paramount+ with Showtime": (1770, 30),
    "Peacock Premium": (386, 9),
    "Peacock Premium Plus": (387, 62),
    "Apple TV Plus": (350, 8),
    "Starz": (43, 20),
    "Starz Amazon Channel": (1855, 74),
    "AMC+": (526, 25),
    "AMC+ Amazon Channel": (528, 88),
    "AMC Plus Apple TV Channel": (1854, 95),
    "MUBI": (11, 14),
    "Shudder": (99, 17),
    "Criterion Channel": (258, 35),
    "Kanopy": (191, 40),
    "fuboTV": (257, 46),
    "MGM Plus": (34, 50),
}
# Rent/buy and free-with-ads offers: never flat-rate, the pipeline must ignore them.
RENT_BUY_PROVIDERS: dict[str, tuple[int, int]] = {
    "Apple TV": (2, 4),
    "Amazon Video": (10, 6),
    "Google Play Movies": (3, 16),
    "Fandango At Home": (7, 20),
}
ADS_PROVIDERS: dict[str, tuple[int, int]] = {"Tubi TV": (73, 30), "Pluto TV": (300, 44)}

# A service (what a viewer subscribes to) and the raw TMDB listings it shows up as.
_SERVICE_LISTINGS: dict[str, tuple[tuple[str, ...], ...]] = {
    "netflix": (("Netflix", "Netflix Standard with Ads"), ("Netflix",)),
    "prime": (("Amazon Prime Video", "Amazon Prime Video with Ads"), ("Amazon Prime Video",)),
    "hulu": (("Hulu",),),
    "disney": (("Disney Plus",),),
    "max": (("Max",), ("Max", "Max Amazon Channel")),
    "paramount": (("Paramount Plus Essential", "Paramount+ with Showtime"), ("Paramount Plus Essential",)),
    "peacock": (("Peacock Premium", "Peacock Premium Plus"),),
    "apple": (("Apple TV Plus",),),
    "starz": (("Starz Amazon Channel",), ("Starz", "Starz Amazon Channel")),
    "amc": (("AMC+ Amazon Channel",), ("AMC+", "AMC Plus Apple TV Channel")),
    "mubi": (("MUBI",),),
    "shudder": (("Shudder",), ("Shudder", "AMC+ Amazon Channel")),
    "criterion": (("Criterion Channel",),),
    "kanopy": (("Kanopy",),),
    "fubo": (("fuboTV",),),
    "mgm": (("MGM Plus",),),
}  # fmt: skip
_SERVICE_WEIGHTS: dict[str, float] = {
    "netflix": 11, "prime": 9, "hulu": 7, "max": 6, "disney": 2, "paramount": 4, "peacock": 4,
    "apple": 3, "starz": 2, "amc": 2, "mubi": 2, "shudder": 1.5, "criterion": 1, "kanopy": 1,
    "fubo": 0.7, "mgm": 1,
}  # fmt: skip
_GENRE_SERVICE_BOOST: dict[str, dict[str, float]] = {
    "Horror": {"shudder": 8, "amc": 3},
    "Family": {"disney": 10},
    "Animation": {"disney": 10, "netflix": 4},
    "Documentary": {"kanopy": 3, "mubi": 2, "criterion": 2},
    "Drama": {"mubi": 2, "criterion": 1.5},
}


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    gender: int  # TMDB: 0 unknown, 1 female, 2 male, 3 non-binary
    department: str
    popularity: float


@dataclass(frozen=True)
class CastCredit:
    person: Person
    character: str
    order: int
    credit_id: str


@dataclass(frozen=True)
class CrewCredit:
    person: Person
    department: str
    job: str
    credit_id: str


@dataclass(frozen=True)
class Release:
    """One dated release in one country (TMDB types: 1 premiere … 3 theatrical, 4 digital …)."""

    country: str
    date: dt.date
    type: int
    certification: str
    note: str = ""


@dataclass(frozen=True)
class ProviderEpoch:
    """From `start` on, the title is flat-rate on these raw TMDB provider names (empty: nowhere)."""

    start: dt.date
    flatrate: tuple[str, ...]


@dataclass(frozen=True)
class Film:
    """One fictional title and everything about it that can change with the world date."""

    id: int
    title: str
    original_language: str
    overview: str
    tagline: str
    genre_ids: tuple[int, ...]
    runtime: int | None  # None: TMDB sends null; some titles send 0 instead (see `runtime_zero`)
    runtime_zero: bool
    release_date: dt.date  # primary release date
    releases: tuple[Release, ...]
    cast: tuple[CastCredit, ...]
    crew: tuple[CrewCredit, ...]
    vote_average: float
    vote_count: int  # eventual count; the count on a date grows towards it
    base_popularity: float
    provider_epochs: tuple[ProviderEpoch, ...]
    rent_buy: tuple[str, ...]
    ads: tuple[str, ...]
    budget: int
    change_dates: tuple[dt.date, ...]  # release, vote refreshes and provider moves, sorted

    def last_touch(self, date: dt.date) -> dt.date | None:
        """The latest date ≤ `date` on which this title's data changed (None: not yet released)."""
        index = bisect.bisect_right(self.change_dates, date)
        return self.change_dates[index - 1] if index else None

    def _age_at_touch(self, date: dt.date) -> int:
        touch = self.last_touch(date)
        return 0 if touch is None else (touch - self.release_date).days

    def vote_count_on(self, date: dt.date) -> int:
        if date < self.release_date or self.vote_count == 0:
            return 0
        age = self._age_at_touch(date)
        return max(1, round(self.vote_count * (1 - math.exp(-(age + 3) / 75))))

    def vote_average_on(self, date: dt.date) -> float:
        if self.vote_count_on(date) == 0:
            return 0.0
        age = self._age_at_touch(date)
        drift = 0.6 * math.exp(-age / 60) * (1 if self.id % 2 else -1)
        return round(min(10.0, max(0.5, self.vote_average + drift)), 3)

    def popularity_on(self, date: dt.date) -> float:
        if date < self.release_date:
            days_out = (self.release_date - date).days
            return round(self.base_popularity * 0.4 * math.exp(-days_out / 20), 3)
        age = self._age_at_touch(date)
        return round(self.base_popularity * (0.12 + math.exp(-age / 90)), 3)

    def flatrate_on(self, date: dt.date) -> tuple[str, ...]:
        current: tuple[str, ...] = ()
        for epoch in self.provider_epochs:
            if epoch.start <= date:
                current = epoch.flatrate
        return current

    def status_on(self, date: dt.date) -> str:
        if self.release_date <= date:
            return "Released"
        return "Post Production" if (self.release_date - date).days <= 21 else "In Production"

    def genre_names(self) -> list[str]:
        return [GENRES[g] for g in self.genre_ids]

    def directors(self) -> list[str]:
        return [c.person.name for c in self.crew if c.job == "Director"]


@dataclass(frozen=True)
class World:
    """The universe as seen on `date`: released titles plus a few announced ones."""

    date: dt.date
    films: tuple[Film, ...]  # sorted by id

    @functools.cached_property
    def by_id(self) -> dict[int, Film]:
        return {f.id: f for f in self.films}

    def released(self) -> list[Film]:
        return [f for f in self.films if f.release_date <= self.date]

    def get(self, movie_id: int) -> Film | None:
        return self.by_id.get(movie_id)


def build_world(date: dt.date | str) -> World:
    """The world on `date`: every title released on or before it, plus those due within 30 days."""
    day = dt.date.fromisoformat(date) if isinstance(date, str) else date
    horizon = day + dt.timedelta(days=ANNOUNCE_DAYS)
    return World(date=day, films=tuple(f for f in universe() if f.release_date <= horizon))


@functools.cache
def universe() -> tuple[Film, ...]:
    """Every title the fictional world will ever hold, generated from one fixed seed."""
    rng = random.Random(_SEED)
    directors = _people(rng, 380, FIRST_PERSON_ID, "Directing")
    actors = _people(rng, 1400, FIRST_PERSON_ID + 1000, "Acting")
    crew = _people(rng, 700, FIRST_PERSON_ID + 3000, "Crew")
    span = (UNIVERSE_END - UNIVERSE_START).days
    titles: set[str] = set()
    films = []
    for index in range(UNIVERSE_SIZE):
        film_rng = random.Random(f"{_SEED}:{index}")
        offset = film_rng.randrange(span + 1)
        films.append(
            _make_film(
                film_rng,
                FIRST_MOVIE_ID + index,
                UNIVERSE_START + dt.timedelta(days=offset),
                titles,
                directors,
                actors,
                crew,
            )
        )
    return tuple(films)


def _people(rng: random.Random, count: int, first_id: int, department: str) -> tuple[Person, ...]:
    names: set[str] = set()
    people: list[Person] = []
    while len(people) < count:
        name = f"{rng.choice(words.GIVEN_NAMES)} {rng.choice(words.FAMILY_NAMES)}"
        if name in names:
            continue
        names.add(name)
        people.append(
            Person(
                id=first_id + len(people),
                name=name,
                gender=rng.choices((1, 2, 0, 3), weights=(46, 46, 6, 2))[0],
                department=department,
                popularity=round(rng.lognormvariate(0.5, 0.8), 3),
            )
        )
    return tuple(people)


def _credit_id(*parts: object) -> str:
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()[:24]


def _skewed(rng: random.Random, pool: Sequence[Person], k: int, power: float) -> list[Person]:
    """k distinct people, earlier pool members far more likely (a few busy careers, a long tail)."""
    chosen: dict[int, Person] = {}
    while len(chosen) < k:
        index = min(len(pool) - 1, int(len(pool) * rng.random() ** power))
        chosen[pool[index].id] = pool[index]
    return list(chosen.values())


RENAMED = "\0renamed:"  # marks a renamed title in `taken`, apart from the drawn ones


def _title(rng: random.Random, taken: set[str]) -> str:
    while True:
        w = rng.choice(words.INVENTED_WORDS)
        noun = rng.choice(words.TITLE_NOUNS)
        adj = rng.choice(words.TITLE_ADJECTIVES)
        given = rng.choice(words.GIVEN_NAMES)
        patterns = (
            (f"{w}", 3),
            (f"The {w} {noun}", 6),
            (f"{noun} of {w}", 4),
            (f"{adj} {w}", 3),
            (f"{w}: The {adj} {noun}", 2),
            (f"{given} and the {adj} {noun}", 2),
            (f"Return to {w}", 1),
            (f"The {adj} {noun} at {w}", 2),
            (f"{w} {noun}s", 2),
            (f"{w} 2", 0.5),
        )
        title = rng.choices([p for p, _ in patterns], weights=[wt for _, wt in patterns])[0]
        if title not in taken:
            taken.add(title)
            if title in words.PLOT_WORDS:
                # A plot's place name must never read as another film's title: the one-word
                # title takes its noun. `taken` keeps the drawn title, so every later draw - and
                # the rest of the world - is what it was.
                renamed = next(
                    t
                    for t in (f"The {w} {noun}", f"{adj} {w}", f"{w} {noun}s")
                    if t not in taken and RENAMED + t not in taken
                )
                taken.add(RENAMED + renamed)
                return renamed
            return title


def _certification(rng: random.Random, genres: list[str]) -> str:
    """US certification ('' = none given, which the pipeline reads as NR)."""
    nr_chance = 0.8 if "Documentary" in genres else 0.9 if "TV Movie" in genres else 0.2
    if rng.random() < nr_chance:
        return ""
    first = genres[0] if genres else "Drama"
    table: dict[str, tuple[tuple[str, ...], tuple[float, ...]]] = {
        "Horror": (("R", "PG-13"), (80, 20)),
        "Family": (("G", "PG", "PG-13"), (30, 65, 5)),
        "Animation": (("G", "PG", "PG-13"), (30, 65, 5)),
        "Comedy": (("R", "PG-13", "PG"), (45, 45, 10)),
        "Drama": (("R", "PG-13", "PG"), (55, 40, 5)),
        "Thriller": (("R", "PG-13"), (75, 25)),
        "Crime": (("R", "PG-13"), (80, 20)),
        "Mystery": (("R", "PG-13", "PG"), (60, 35, 5)),
        "Romance": (("R", "PG-13", "PG"), (35, 55, 10)),
    }
    labels, weights = table.get(first, (("PG-13", "R", "PG"), (60, 35, 5)))
    cert = rng.choices(labels, weights=weights)[0]
    if cert == "R" and rng.random() < 0.03:
        return "NC-17"
    return cert


def _runtime(rng: random.Random, genres: list[str]) -> int:
    if rng.random() < 0.025:
        return rng.randint(14, 42)  # a short
    first = genres[0] if genres else "Drama"
    lo, hi = {
        "Animation": (78, 108),
        "Family": (82, 112),
        "Horror": (80, 112),
        "Comedy": (84, 118),
        "Documentary": (72, 125),
        "Action": (98, 165),
        "Science Fiction": (95, 170),
        "History": (110, 190),
        "War": (110, 185),
        "Drama": (90, 160),
    }.get(first, (88, 135))
    value = rng.triangular(lo, hi, lo + (hi - lo) * 0.35)
    if rng.random() < 0.03:
        value = rng.uniform(165, 192)  # an epic
    return round(value)


def _providers(
    rng: random.Random, genres: list[str], release: dt.date, original: bool
) -> tuple[ProviderEpoch, ...]:
    def pick_listing(exclude: str | None) -> tuple[str, tuple[str, ...]]:
        weights = dict(_SERVICE_WEIGHTS)
        for g in genres:
            for service, boost in _GENRE_SERVICE_BOOST.get(g, {}).items():
                weights[service] += boost
        weights.pop(exclude or "", None)
        services = sorted(weights)
        service = rng.choices(services, weights=[weights[s] for s in services])[0]
        listing = rng.choice(_SERVICE_LISTINGS[service])
        if rng.random() < 0.18:  # also on a second service
            other = rng.choice([s for s in services if s != service])
            listing = (*listing, *rng.choice(_SERVICE_LISTINGS[other]))
        return service, listing

    if original:
        service, listing = pick_listing(None)
        epochs = [ProviderEpoch(release, listing)]
        start = release
    elif rng.random() < 0.58:
        start = release + dt.timedelta(days=rng.randint(32, 130))
        service, listing = pick_listing(None)
        epochs = [ProviderEpoch(start, listing)]
    else:
        return ()
    if rng.random() < 0.45:  # licence moves on later
        move = start + dt.timedelta(days=rng.randint(60, 300))
        if rng.random() < 0.15:
            epochs.append(ProviderEpoch(move, ()))
        else:
            epochs.append(ProviderEpoch(move, pick_listing(service)[1]))
    return tuple(epochs)


def _overview(rng: random.Random, genres: list[str], lead: str) -> str:
    key = next((g for g in genres if g in words.HOOKS), "Drama")
    return (
        f"{lead}, a {rng.choice(words.OCCUPATIONS)} from {rng.choice(words.PLACES)}, "
        f"{rng.choice(words.HOOKS[key])}. {rng.choice(words.TWISTS)}"
    )


def _make_film(
    rng: random.Random,
    movie_id: int,
    release: dt.date,
    taken: set[str],
    directors: tuple[Person, ...],
    actors: tuple[Person, ...],
    crew_pool: tuple[Person, ...],
) -> Film:
    release -= dt.timedelta(days=(release.weekday() - 4) % 7)  # most US releases land on a Friday
    release = max(release, UNIVERSE_START)
    names = sorted(_PRIMARY_GENRE_WEIGHTS)
    primary = rng.choices(names, weights=[_PRIMARY_GENRE_WEIGHTS[n] for n in names])[0]
    extra = rng.sample(
        _SECONDARY[primary], k=min(len(_SECONDARY[primary]), rng.choice((0, 1, 1, 2)))
    )
    genres = [primary, *extra]
    quirk = rng.random()
    runtime: int | None = _runtime(rng, genres)
    runtime_zero = False
    if quirk < 0.03:
        runtime, runtime_zero = None, rng.random() < 0.5
    cert = _certification(rng, genres)
    if 0.03 <= quirk < 0.055:
        genres = []
    original = rng.random() < 0.15
    cert_on = rng.choices(("theatrical", "digital", "limited"), weights=(80, 12, 8))[0]
    if original:
        cert_on = "digital"
    releases = []
    if rng.random() < 0.12:
        festival = release - dt.timedelta(days=rng.randint(40, 200))
        releases.append(Release("US", max(festival, dt.date(2024, 9, 1)), 1, "", "Festival"))
    if cert_on == "digital":
        releases.append(Release("US", release, 4, cert))
    elif cert_on == "limited":
        releases.append(Release("US", release, 2, cert))
        releases.append(Release("US", release + dt.timedelta(days=21), 3, ""))
    else:
        releases.append(Release("US", release, 3, cert))
        releases.append(Release("US", release + dt.timedelta(days=rng.randint(25, 60)), 4, ""))
    if rng.random() < 0.4:
        gb_cert = {"G": "U", "PG": "PG", "PG-13": "12A", "R": "15", "NC-17": "18"}.get(cert, "")
        releases.append(Release("GB", release + dt.timedelta(days=rng.randint(0, 14)), 3, gb_cert))
    if cert == "" and rng.random() < 0.3:  # some unrated titles say so explicitly
        releases = [
            Release(r.country, r.date, r.type, "NR", r.note)
            if r.country == "US" and r.type >= 2
            else r
            for r in releases
        ]

    film_directors = _skewed(rng, directors, 2 if rng.random() < 0.05 else 1, 1.25)
    cast_people = _skewed(rng, actors, rng.randint(5, 9), 1.6)
    crew_people = _skewed(rng, crew_pool, 4, 1.3)
    cast = tuple(
        CastCredit(p, rng.choice(words.CHARACTER_ROLES), order, _credit_id(movie_id, "cast", p.id))
        for order, p in enumerate(cast_people)
    )
    jobs = (
        ("Writing", "Screenplay"),
        ("Production", "Producer"),
        ("Camera", "Director of Photography"),
        ("Sound", "Original Music Composer"),
    )
    crew = [
        CrewCredit(p, "Directing", "Director", _credit_id(movie_id, "dir", p.id))
        for p in film_directors
    ]
    crew += [
        CrewCredit(p, dept, job, _credit_id(movie_id, job, p.id))
        for p, (dept, job) in zip(crew_people, jobs, strict=True)
    ]
    if rng.random() < 0.3:  # writer-director
        d = film_directors[0]
        crew.append(CrewCredit(d, "Writing", "Writer", _credit_id(movie_id, "writer", d.id)))

    zero_votes = 0.055 <= quirk < 0.085
    vote_count = 0 if zero_votes else max(3, round(rng.lognormvariate(5.0, 1.5)))
    vote_average = 0.0 if zero_votes else round(min(9.4, max(2.2, rng.gauss(6.4, 1.0))), 3)
    provider_epochs = _providers(rng, genres or ["Drama"], release, original)
    rent_buy = tuple(sorted(rng.sample(sorted(RENT_BUY_PROVIDERS), k=rng.randint(0, 3))))
    ads = tuple(sorted(rng.sample(sorted(ADS_PROVIDERS), k=1))) if rng.random() < 0.1 else ()
    changes = {release, *(e.start for e in provider_epochs)}
    day = 7
    while day < 900:  # votes refresh weekly for half a year, then every four weeks
        changes.add(release + dt.timedelta(days=day))
        day += 7 if day < 182 else 28
    return Film(
        id=movie_id,
        title=_title(rng, taken),
        original_language=rng.choices(
            ("en", "fr", "es", "ko", "de", "ja"), weights=(80, 5, 5, 4, 3, 3)
        )[0],
        overview=_overview(rng, genres, cast_people[0].name.split()[0]),
        tagline=rng.choice(words.TAGLINES),
        genre_ids=tuple(_GENRE_ID[g] for g in genres),
        runtime=runtime,
        runtime_zero=runtime_zero,
        release_date=release,
        releases=tuple(releases),
        cast=cast,
        crew=tuple(crew),
        vote_average=vote_average,
        vote_count=vote_count,
        base_popularity=round(rng.lognormvariate(2.6, 0.9), 3),
        provider_epochs=provider_epochs,
        rent_buy=rent_buy,
        ads=ads,
        budget=rng.choice((0, 0, rng.randrange(1, 200) * 1_000_000)),
        change_dates=tuple(sorted(changes)),
    )
