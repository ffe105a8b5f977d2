"""Our own word lists for the fictional world: invented title words, names, places and story parts."""

from __future__ import annotations

import re

# fmt: off
# Invented proper nouns; every generated title contains at least one, so no title can be a real film's.
INVENTED_WORDS: tuple[str, ...] = (
    "Varnholt", "Quillmere", "Osterfane", "Brimwick", "Caldrith", "Emberlorn", "Falloway",
    "Gessamar", "Hollowyn", "Istravel", "Jorundel", "Kestrane", "Lumwater", "Marrowgate",
    "Nethermoor", "Orvannis", "Pellucine", "Quorvath", "Rushlade", "Sablethorn", "Tamberlight",
    "Umbrevale", "Vessarine", "Wyndcross", "Yarrowmede", "Zephrine", "Astoriel", "Belgrath",
    "Corvessa", "Drumlow", "Elsmyre", "Fenwythe", "Glimmerholt", "Harrowdeep", "Ithrandel",
    "Juniperra", "Kallisward", "Lorneth", "Moonvarre", "Norrowind", "Ostrellan", "Pryndale",
    "Quenhollow", "Ravelmoor", "Skellwick", "Thornavel", "Ulvenreach", "Veldmarrow", "Wistrell",
    "Xanderhal", "Yelvarin", "Zorrowick", "Amberquay", "Bellocair", "Cindervast", "Dunmorrow",
    "Esterwold", "Frostennel", "Gallowmere", "Hesperine", "Ivorlund", "Kindrelle", "Larkspurra",
    "Mistrelain", "Nimbrevor", "Obrellis", "Pondraven", "Rellingford", "Saltvarrow", "Tessivane",
)
TITLE_NOUNS: tuple[str, ...] = (
    "Affair", "Signal", "Harvest", "Ledger", "Crossing", "Weather", "Orchard", "Covenant",
    "Tide", "Lantern", "Frontier", "Garden", "Verdict", "Requiem", "Circuit", "Echo", "Season",
    "Passage", "Archive", "Reckoning", "Lullaby", "Parade", "Ransom", "Voyage", "Inheritance",
    "Fever", "Compass", "Masquerade", "Undertow", "Heist", "Wedding", "Summit", "Confession",
    "Migration", "Blueprint", "Vigil", "Experiment", "Getaway", "Rehearsal", "Outpost",
)
TITLE_ADJECTIVES: tuple[str, ...] = (
    "Silent", "Crimson", "Last", "Hidden", "Broken", "Golden", "Long", "Quiet", "Burning",
    "Restless", "Paper", "Glass", "Iron", "Velvet", "Northern", "Distant", "Hollow", "Electric",
    "Secret", "Wild", "Tender", "Borrowed", "Midnight", "Salt", "Tiny", "Endless",
)

GIVEN_NAMES: tuple[str, ...] = (
    "Ilvara", "Tesmond", "Brevin", "Caelith", "Dorrin", "Essaly", "Fenna", "Garrick", "Halwyn",
    "Isolde", "Jaskar", "Kerrin", "Lisvane", "Marrek", "Nellora", "Osrik", "Pavella", "Quinlan",
    "Rhosyn", "Sandor", "Talvi", "Ulrika", "Varo", "Wenna", "Yorick", "Zalene", "Aubrel",
    "Bexley", "Corra", "Dashiel", "Elvane", "Fitzroy", "Gwenna", "Harlan", "Imbry", "Jessamy",
    "Koven", "Lioren", "Mabry", "Nivo", "Orla", "Perrin", "Rowenna", "Sorrel", "Tamsin",
    "Ulric", "Vessa", "Wilder", "Yara", "Zeph", "Anneka", "Briony", "Cassius", "Delphine",
    "Emrys", "Faye", "Gideon", "Hester", "Idris", "Juniper", "Kestrel", "Lowell", "Maelis",
    "Noor", "Oswin", "Petra", "Rafferty", "Saoirse", "Thaddeus", "Undine", "Valka", "Wystan",
)
FAMILY_NAMES: tuple[str, ...] = (
    "Tesk", "Hathmoor", "Quellbrook", "Ardane", "Vossberg", "Millrose", "Crane-Ashby", "Dunleavy",
    "Okonvale", "Pembrith", "Sarrow", "Telford-Lyle", "Ulvestad", "Brackwater", "Castellane",
    "Drummond-Vey", "Everhollow", "Farrowby", "Galloran", "Hesketh", "Imrie-Vance", "Jorvik",
    "Kettlewell", "Lindqvar", "Marchetti-Ross", "Nightingale-Bell", "Orlov-Penn", "Pashenko",
    "Quarrington", "Rathbone-Ives", "Stellanova", "Thistlewood", "Umberfield", "Valcourt",
    "Whitlock-Nye", "Yarborough", "Zelinskaya", "Abernathy-Cole", "Blackwood-Ferro", "Corvino",
    "Delacroix-Hale", "Eskildsen", "Fairweather", "Grimaldi-Stone", "Holloway-Brandt", "Ingram",
    "Jaramillo-West", "Kowalczyk", "Larkin-Dupree", "Montague-Reyes", "Novak-Ashe", "Ostrander",
    "Prewitt", "Quintero-Lowe", "Rosenquist", "Sandoval-Greer", "Trevelyan", "Underhay",
    "Vantongeren", "Wexford", "Yilmazer", "Zabrinsky", "Achterberg", "Bellweather", "Coldharbour",
    "Dunmire", "Elsworth-Kai", "Fenwick-Obi", "Gathercole", "Heathcote-Mori", "Ishikawa-Vane",
)

PLACES: tuple[str, ...] = (
    "the harbour town of Brimwick", "a mountain village above Caldrith", "the salt flats of Saltvarrow",
    "a crumbling estate in Gallowmere", "the river city of Lumwater", "a research station off Kestrane",
    "the night markets of Corvessa", "a farming valley near Pryndale", "the border town of Wyndcross",
    "an island monastery at Orvannis", "the suburbs of Rellingford", "a lighthouse at Norrowind",
)
OCCUPATIONS: tuple[str, ...] = (
    "night-shift nurse", "retired cartographer", "struggling jazz pianist", "rookie detective",
    "marine biologist", "wedding photographer", "disgraced chef", "teenage chess prodigy",
    "long-haul trucker", "museum restorer", "stand-up comic", "former getaway driver",
    "small-town veterinarian", "radio host", "beekeeper", "courier", "court stenographer",
)
HOOKS: dict[str, tuple[str, ...]] = {
    "Horror": (
        "starts hearing a voice through the walls of a rented cottage",
        "finds that everyone who reads an old diary vanishes within a week",
        "is invited to a reunion from which no guest has ever returned",
    ),
    "Comedy": (
        "accidentally becomes the face of a nationwide soup campaign",
        "must plan a sibling's wedding with three days' notice and no budget",
        "swaps apartments with a stranger for one chaotic summer",
    ),
    "Action": (
        "is pulled back into one last job when a convoy goes missing",
        "has twelve hours to cross a city that wants them dead",
        "discovers the armoured train they guard carries something priceless",
    ),
    "Science Fiction": (
        "intercepts a message that appears to come from tomorrow",
        "wakes aboard a colony ship decades before it was due to arrive",
        "is hired to test a machine that records dreams",
    ),
    "Romance": (
        "keeps running into the same stranger at every wrong moment",
        "falls for the rival baker across the square",
        "answers a letter that was mailed thirty years ago",
    ),
    "Animation": (
        "befriends a lost cloud that cannot find its way home",
        "sets out to return a stolen star to the sky",
        "leads a band of misfit toys on a rescue mission",
    ),
    "Documentary": (
        "follows the last season of a family-run ferry",
        "traces how a single song travelled across four continents",
        "spends a year inside a city's overnight emergency room",
    ),
    "Drama": (
        "returns home to care for an estranged parent",
        "must decide whether to testify against a lifelong friend",
        "inherits a failing vineyard and the debts that come with it",
    ),
    "Thriller": (
        "witnesses something on a night train that nobody else will admit to seeing",
        "receives photographs of their own house taken from inside",
        "uncovers a ledger that powerful people want buried",
    ),
}
TWISTS: tuple[str, ...] = (
    "Nothing about the truth is what it first appears to be.",
    "What begins as an errand turns into the fight of a lifetime.",
    "Old loyalties are tested as the stakes keep rising.",
    "Help arrives from the least likely person in town.",
    "Time is running out, and so is trust.",
    "A choice made years ago finally comes due.",
)
TAGLINES: tuple[str, ...] = (
    "Some doors stay closed for a reason.",
    "Every ending needs a witness.",
    "One summer. No rules.",
    "The road home is never straight.",
    "Listen closely.",
    "Nobody leaves unchanged.",
    "",
)
CHARACTER_ROLES: tuple[str, ...] = (
    "the Ferryman", "Inspector Vale", "Aunt Perpetua", "the Stranger", "Captain Orrin",
    "young Tobiah", "the Mayor", "Dr. Halvard", "Mother Superior", "the Courier", "Granny Moss",
    "Sergeant Briar", "the Twins", "Professor Quell", "the Landlord", "Lieutenant Sable",
)
# fmt: on


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, tuple):
        return [s for v in value for s in _strings(v)]
    return []


def _plot_words() -> frozenset[str]:
    """Invented words that plots use (places, hooks, twists): never a title on their own."""
    text = " ".join(
        s
        for name, value in globals().items()
        if name.isupper()
        for s in _strings(value)
        if name != "INVENTED_WORDS"
    )
    return frozenset(w for w in INVENTED_WORDS if re.search(rf"\b{w}\b", text))


PLOT_WORDS: frozenset[str] = _plot_words()
