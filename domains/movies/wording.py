"""The persona grammar of generated movie tasks: who the user is, and the cue clauses that say a topic matters (our own words).

A persona's first sentence is the character and, for each topic the user will only state when
asked, one cue clause: "You are a ferry mechanic, and the year it came out always matters to
you." Every cue clause names its topic with a word of the domain's documented vocabulary
(`domains.movies.simulators.vocabulary.TOPIC_WORDS`) and never a value or a direction, so an
agent that knows the vocabulary can hear the cue, and nothing in it can be tuned to one fixed
phrase: each topic has many paraphrases, and a share of them (`runner.core.generation`) is used
only by test splits.
"""

from __future__ import annotations

from runner.core.generation import Split, usable_wordings

__all__ = ["CUES", "WHO", "cues_for", "who_for"]

WHO: tuple[str, ...] = (
    "a ferry mechanic with a free evening",
    "a night-shift baker who just got home",
    "a beekeeper taking a rare day off",
    "a tax adviser at the end of a long season",
    "a choir singer resting their voice",
    "a hospital porter between shifts",
    "a lighthouse volunteer on a stormy night",
    "a market-stall trader who closed early",
    "a climbing instructor with sore arms",
    "a translator between two deadlines",
    "a school caretaker on half-term",
    "a bicycle courier with rain outside",
    "a retired surveyor with a new sofa",
    "a dental nurse winding down",
    "a train conductor on a rest day",
    "a florist after the wedding season",
    "a sound engineer who wants quiet speakers for once",
    "a locksmith whose last call was cancelled",
    "a museum archivist with a cup of tea",
    "a software tester avoiding screens all day except this one",
    "a beach lifeguard out of season",
    "a tailor finishing a late order",
    "a postgraduate chemist waiting on an experiment",
    "a shepherd back from the hills",
    "a radio producer who never gets to watch anything",
    "a carpenter with sawdust still in their hair",
    "a librarian on their first evening off in weeks",
    "a taxi driver at the end of a double shift",
    "a zookeeper home after feeding time",
    "a pastry chef recovering from a busy brunch",
    "a cartographer between two surveys",
    "a piano tuner with nowhere to be",
    "a wind-farm technician back on land",
    "a veterinary nurse who needs to switch off",
    "a chess coach after a long tournament",
    "a court stenographer resting their hands",
    "a gardener kept indoors by the weather",
    "a furniture restorer with varnish drying",
    "a parcel sorter on a quiet weekend",
    "a swimming coach with wet hair and a free night",
)

# Topic -> clauses that continue "You are <who>, and ..." (each names the topic with a
# TOPIC_WORDS word, never a value or a direction).
CUES: dict[str, tuple[str, ...]] = {
    "release_date": (
        "the year it came out always matters to you",
        "you care about the release year more than most people do",
        "you always check the release date before pressing play",
        "you keep a list sorted by release year",
        "you like to know which year a film is from before you start",
        "when it came out is the first thing you look up",
        "the release year is something you have firm views on",
        "you notice the year a film is from straight away",
        "friends tease you for asking which year every film is from",
        "you judge a film partly by the year it came out",
    ),
    "people": (
        "you follow the careers of particular directors",
        "you pick films by the cast more than by the poster",
        "you have strong feelings about certain actors",
        "the director is the first thing you look at",
        "you keep track of which filmmakers you trust",
        "you always want to know who is in the cast",
        "some performers you would watch in anything",
        "you read up on the director before choosing",
        "there are actors you seek out and actors you avoid",
        "you choose by filmmaker, not by trailer",
    ),
    "content_rating": (
        "the children may wander in at any moment",
        "your teenagers might join you halfway through",
        "you need something suitable for whoever is on the sofa",
        "you always check the certificate first",
        "the grandchildren are staying over",
        "you are careful about who can watch what in your house",
        "the kids are still awake",
        "you keep an eye on certificates since the children got curious",
        "you want to be sure it is suitable for the whole room",
        "the children have a habit of peeking at the screen",
    ),
    "runtime": (
        "the length is something you always ask about",
        "how long a film runs decides a lot for you",
        "you plan your evening around the length",
        "you check how long it is before anything else",
        "you have opinions on the running length of films",
        "the minutes it runs matter to your plans tonight",
        "you always look at the length first",
        "how long it lasts matters to you tonight",
    ),
    "rating": (
        "you read the reviews before you commit",
        "the score on review sites matters to you",
        "you pay attention to reviews more than to trailers",
        "you keep an eye on review scores",
        "you never pick a film without a look at the reviews",
        "review scores are part of how you choose",
    ),
    "vote_count": (
        "you wonder how many people have actually seen a film",
        "audience size tells you something about a film",
        "you notice the number of votes a film has",
        "you care how many people have watched what you pick",
        "you look at how many people rated a film",
        "the number of votes says a lot to you",
    ),
}


def who_for(split: Split) -> tuple[str, ...]:
    """The characters a split may use."""
    return usable_wordings(WHO, split)


def cues_for(topic: str, split: Split) -> tuple[str, ...]:
    """The cue clauses of a topic a split may use."""
    return usable_wordings(CUES[topic], split)
