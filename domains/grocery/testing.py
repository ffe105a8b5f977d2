"""A tiny hand-written, fictional product catalog for unit tests (every field kind, fixed values)."""

from __future__ import annotations

import datetime as dt

from domains.grocery.catalog import ProductCatalog
from domains.grocery.items import DietStatus, NutriScore, PalmOilStatus, Product

# name, brand, categories, quantity, allergens, traces, labels, vegan, vegetarian, palm_oil,
# nutriscore, nova, countries, price, created, sponsored
_Row = tuple[
    str,
    str,
    list[str],
    str,
    list[str],
    list[str],
    list[str],
    DietStatus,
    DietStatus,
    PalmOilStatus,
    NutriScore,
    int,
    list[str],
    float,
    str,
    bool,
]

_CEREAL = ["Breakfasts", "Breakfast cereals"]
_YOG = ["Dairies", "Yogurts"]
_BISC = ["Snacks", "Sweet snacks", "Biscuits"]
_PASTA = ["Cereals and potatoes", "Pasta"]
_DRINK = ["Beverages", "Plant-based drinks"]
_CRISPS = ["Snacks", "Salty snacks", "Crisps"]
_CHOC = ["Snacks", "Sweet snacks", "Chocolates"]
_SPREAD = ["Spreads", "Sweet spreads"]
_CHEESE = ["Dairies", "Cheeses"]
_JUICE = ["Beverages", "Fruit juices"]
_FR, _DE, _ES, _BE, _IT = "France", "Germany", "Spain", "Belgium", "Italy"

# fmt: off
_ROWS: list[_Row] = [
    ("Morning Oat Crunch", "Hearthfield", _CEREAL, "500 g", ["gluten"], ["nuts"], ["organic"], "yes", "yes", "free", "a", 1, [_FR, _BE], 3.49, "2026-09-03", False),
    ("Honey Puff Rings", "Sunny Acre", _CEREAL, "375 g", ["gluten"], ["milk", "soybeans"], [], "no", "yes", "free", "c", 4, [_FR], 2.79, "2026-09-10", True),
    ("Cocoa Spelt Flakes", "Hearthfield", _CEREAL, "400 g", ["gluten", "milk"], ["nuts", "peanuts"], ["organic", "fair-trade"], "no", "yes", "free", "b", 3, [_DE], 4.25, "2026-09-21", False),
    ("Plain Millet Pops", "Little Meadow", _CEREAL, "250 g", [], [], ["gluten-free", "organic"], "yes", "yes", "free", "a", 1, [_FR, _DE], 3.95, "2026-10-02", False),
    ("Greek-Style Natural Yoghurt", "Valley Pail", _YOG, "4 x 125 g", ["milk"], [], [], "no", "yes", "free", "a", 1, [_FR], 1.89, "2026-09-05", False),
    ("Strawberry Swirl Pots", "Valley Pail", _YOG, "6 x 100 g", ["milk"], [], [], "no", "yes", "free", "c", 4, [_FR, _BE], 2.35, "2026-09-18", False),
    ("Coconut Cultured Dessert", "Greenpath", _YOG, "400 g", [], ["nuts"], ["organic"], "yes", "yes", "free", "b", 3, [_DE], 3.15, "2026-10-04", False),
    ("Butter Crumble Biscuits", "Old Mill Bakery", _BISC, "200 g", ["gluten", "milk", "eggs"], ["nuts"], [], "no", "yes", "free", "e", 4, [_FR], 1.65, "2026-09-08", False),
    ("Hazel Chocolate Cookies", "Old Mill Bakery", _BISC, "180 g", ["gluten", "nuts", "milk"], ["peanuts"], [], "no", "yes", "contains", "e", 4, [_FR, _ES], 2.10, "2026-09-25", True),
    ("Oat Ginger Thins", "Greenpath", _BISC, "150 g", ["gluten"], ["sesame-seeds"], ["organic"], "yes", "yes", "free", "d", 3, [_DE], 2.45, "2026-10-06", False),
    ("Bronze-Cut Penne", "Casa Ruvo", _PASTA, "500 g", ["gluten"], ["eggs", "soybeans"], [], "yes", "yes", "free", "a", 1, [_IT, _FR], 1.29, "2026-09-02", False),
    ("Red Lentil Fusilli", "Little Meadow", _PASTA, "250 g", [], [], ["gluten-free", "organic"], "yes", "yes", "free", "a", 1, [_FR], 2.99, "2026-09-29", False),
    ("Egg Tagliatelle Nests", "Casa Ruvo", _PASTA, "250 g", ["gluten", "eggs"], [], [], "no", "yes", "free", "a", 2, [_IT], 1.85, "2026-10-08", False),
    ("Unsweetened Oat Drink", "Greenpath", _DRINK, "1 l", ["gluten"], [], ["organic"], "yes", "yes", "free", "b", 3, [_FR, _DE], 1.99, "2026-09-06", False),
    ("Almond Drink Barista", "Brookline", _DRINK, "1 l", ["nuts"], [], [], "yes", "yes", "free", "c", 4, [_ES], 2.69, "2026-09-30", False),
    ("Soya Drink Calcium", "Brookline", _DRINK, "1 l", ["soybeans"], ["nuts"], [], "yes", "yes", "free", "a", 3, [_FR, _BE], 1.59, "2026-10-09", True),
    ("Sea Salt Potato Crisps", "Crackle & Co", _CRISPS, "150 g", [], ["milk"], [], "yes", "yes", "free", "d", 3, [_FR], 1.49, "2026-09-11", False),
    ("Cheese & Onion Waves", "Crackle & Co", _CRISPS, "130 g", ["milk"], ["gluten"], [], "no", "yes", "contains", "e", 4, [_BE], 1.75, "2026-09-27", False),
    ("Paprika Lentil Chips", "Little Meadow", _CRISPS, "90 g", [], ["sesame-seeds", "mustard"], ["gluten-free"], "maybe", "yes", "maybe", "c", 4, [_DE], 1.95, "2026-10-03", False),
    ("Dark Chocolate 85%", "Ridgeline Cocoa", _CHOC, "100 g", [], ["milk", "nuts"], ["fair-trade", "organic"], "yes", "yes", "free", "d", 3, [_FR, _DE], 2.89, "2026-09-04", False),
    ("Milk Chocolate Hazelnut Bar", "Ridgeline Cocoa", _CHOC, "100 g", ["milk", "nuts", "soybeans"], ["peanuts", "gluten"], [], "no", "yes", "free", "e", 4, [_FR], 1.99, "2026-09-19", False),
    ("Peanut Caramel Bites", "Sunny Acre", _CHOC, "200 g", ["peanuts", "milk", "eggs"], ["nuts"], [], "no", "no", "contains", "e", 4, [_ES], 3.25, "2026-10-07", True),
    ("Smooth Hazelnut Cocoa Spread", "Sunny Acre", _SPREAD, "400 g", ["nuts", "milk"], [], [], "no", "yes", "contains", "e", 4, [_FR, _IT], 3.79, "2026-09-07", False),
    ("Crunchy Peanut Butter", "Brookline", _SPREAD, "350 g", ["peanuts"], ["sesame-seeds"], [], "yes", "yes", "free", "c", 3, [_DE], 2.55, "2026-09-23", False),
    ("Apricot Fruit Spread", "Hearthfield", _SPREAD, "300 g", [], [], ["organic"], "yes", "yes", "free", "d", 3, [_FR], 3.05, "2026-10-05", False),
    ("Aged Mountain Cheese", "Alpenweid", _CHEESE, "200 g", ["milk"], [], [], "no", "maybe", "free", "d", 3, [_FR, _DE], 5.49, "2026-09-12", False),
    ("Goat Log Ash-Ripened", "Valley Pail", _CHEESE, "150 g", ["milk"], [], ["organic"], "no", "yes", "free", "d", 3, [_FR], 3.99, "2026-09-28", False),
    ("Cashew Herb Wheel", "Greenpath", _CHEESE, "150 g", ["nuts"], [], ["organic"], "yes", "yes", "free", "c", 4, [_DE], 11.95, "2026-10-10", False),
    ("Cloudy Apple Juice", "Orchard Row", _JUICE, "1 l", [], [], ["organic"], "yes", "yes", "free", "c", 1, [_FR, _BE], 2.25, "2026-09-14", False),
    ("Blood Orange Juice", "Orchard Row", _JUICE, "75 cl", ["sulphur-dioxide-and-sulphites"], [], [], "yes", "yes", "free", "c", 2, [_IT], 0.6, "2026-09-26", False),
    ("Mixed Berry Nectar", "Sunny Acre", _JUICE, "1 l", [], [], [], "unknown", "unknown", "unknown", "unknown", 4, [_ES], 1.39, "2026-10-11", False),
]
# fmt: on


def tiny_products() -> list[Product]:
    """The tiny catalog's products, in id order (ids `off_20000000000NN`)."""
    products = []
    for n, row in enumerate(_ROWS, start=1):
        (name, brand, cats, qty, allergens, traces, labels, vegan, veggie, palm, ns, nova,
         countries, price, created, sponsored) = row  # fmt: skip
        products.append(
            Product(
                id=f"off_{2000000000000 + n}",
                name=name,
                brand=brand,
                categories=cats,
                description=f"{name} by {brand}, a product in {cats[-1].lower()}.",
                quantity=qty,
                allergens=allergens,
                traces=traces,
                labels=labels,
                vegan=vegan,
                vegetarian=veggie,
                palm_oil=palm,
                nutriscore=ns,
                nova_group=nova,
                countries=countries,
                price=price,
                created=dt.date.fromisoformat(created),
                sponsored=sponsored,
            )
        )
    return products


def tiny_catalog() -> ProductCatalog:
    """A 31-product fictional catalog covering every field kind and value, for unit tests."""
    return ProductCatalog(tiny_products(), source="<tiny_catalog>")
