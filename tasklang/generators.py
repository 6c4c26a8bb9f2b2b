"""Value generators for parameters (`who: person_name`): small, fixed word lists.

Lists are part of the source so that a seed gives the same values on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

FIRST = (
    "Ada", "Amara", "Ben", "Carla", "Chen", "Dana", "Diego", "Elena", "Farah", "Gabriel",
    "Hana", "Ivan", "Jonas", "Kira", "Liam", "Maya", "Mateo", "Nadia", "Omar", "Priya",
    "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wei", "Yara", "Zoe", "Noah",
)  # fmt: skip
LAST = (
    "Park", "Okafor", "Schmidt", "Rossi", "Nguyen", "Silva", "Kowalski", "Haddad", "Tanaka",
    "Moreau", "Jensen", "Costa", "Ivanova", "Mendes", "Larsen", "Novak", "Sato", "Brennan",
    "Fischer", "Lindqvist", "Osei", "Petrov", "Quispe", "Romero", "Varga", "Weber",
)  # fmt: skip
STREETS = (
    "Main St", "Oak Avenue", "Harbor Road", "Maple Lane", "Station Street", "Hill Crescent",
    "River Walk", "Market Square", "Elm Court", "Park Row", "Lake View Drive", "Mill Lane",
)  # fmt: skip
CITIES = (
    "Springfield", "Riverton", "Lakewood", "Fairview", "Bridgeport", "Greenville", "Ashford",
    "Milton", "Oakridge", "Westbrook", "Kingsport", "Clearwater",
)  # fmt: skip
COMPANIES = (
    "Northwind Labs", "Bluefin Logistics", "Cedar & Co", "Orbit Analytics", "Juniper Health",
    "Redwood Foods", "Silverline Media", "Atlas Robotics", "Harbor Bank", "Quill Publishing",
)  # fmt: skip
WORDS = (
    "lantern", "harbor", "meadow", "copper", "saffron", "glacier", "orchard", "ember",
    "willow", "summit", "velvet", "canyon", "pepper", "marble", "tundra", "cobalt",
)  # fmt: skip
SENTENCES = (
    "Running ten minutes late, start without me.",
    "Can you bring the charger tomorrow?",
    "The meeting moved to the small room on the third floor.",
    "Don't forget the tickets for Saturday.",
    "Dinner is at eight, I booked a table for four.",
    "Please send me the slides when you get a chance.",
    "The package arrived, it's at the front desk.",
    "Let's meet at the cafe next to the station.",
)  # fmt: skip


def _person(r: random.Random) -> str:
    return f"{r.choice(FIRST)} {r.choice(LAST)}"


def _phone(r: random.Random) -> str:
    return f"+1 {r.randint(201, 989)} 555 {r.randint(0, 9999):04d}"


def _email(r: random.Random) -> str:
    return f"{r.choice(FIRST).lower()}.{r.choice(LAST).lower()}@example.com"


def _street(r: random.Random) -> str:
    return f"{r.randint(1, 250)} {r.choice(STREETS)}, {r.choice(CITIES)}"


def _free_text(r: random.Random) -> str:
    return " ".join(r.choice(WORDS) for _ in range(r.randint(3, 7))).capitalize() + "."


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "person_name": _person,
    "first_name": lambda r: r.choice(FIRST),
    "last_name": lambda r: r.choice(LAST),
    "phone_number": _phone,
    "email_address": _email,
    "street_address": _street,
    "city": lambda r: r.choice(CITIES),
    "company_name": lambda r: r.choice(COMPANIES),
    "word": lambda r: r.choice(WORDS),
    "sentence": lambda r: r.choice(SENTENCES),
    "free_text": _free_text,
}
