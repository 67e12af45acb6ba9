"""The subject of the user's own facts, and the words questions use for their predicates.

Kept apart from `profile.py` (which learns the facts, with many regular expressions) so
that answering a prompt does not compile what only storing a turn needs.
"""

import functools
import re

USER = "User"
# Words a question uses for the user's facts: "my job" asks for the employer fact.
PREDICATE_WORDS = {
    "job": "employer",
    "work": "employer",
    "company": "employer",
    "employer": "employer",
    "workplace": "employer",
    "home": "home",
    "city": "home",
    "town": "home",
    "place": "home",
    "house": "home",
    "flat": "home",
    "apartment": "home",
    "car": "car",
    "vehicle": "car",
    "diet": "diet",
    "food": "diet",
    "allergies": "allergy",
    "allergy": "allergy",
    "medication": "medication",
    "medications": "medication",
    "medicine": "medication",
    "medicines": "medication",
    "meds": "medication",
    "pills": "medication",
    "prescription": "medication",
    "dose": "medication",
    "condition": "condition",
    "conditions": "condition",
    "diagnosis": "condition",
    "illness": "condition",
}
# The everyday word a later question uses for a role.
ROLE_WORDS = {
    "gp": "doctor",
    "mum": "mother",
    "mom": "mother",
    "dad": "father",
    "boss": "manager",
    "physio": "physiotherapist",
    "landlady": "landlord",
    "grandma": "grandmother",
    "grandpa": "grandfather",
    "pediatrician": "kids' doctor",
    "paediatrician": "kids' doctor",
    "vet": "veterinarian",
    "pm": "product manager",
    "ta": "teaching assistant",
    "lsa": "learning support assistant",
}


# "my dentist's number", "our spare key": the words a possessive points at, possessive -s off.
OWNED = re.compile(r"\b(?:my|our)\s+([a-z][\w\-]*)(?:['’]s)?(?:\s+([a-z][\w\-]*))?", re.I)


def owned_roles(message: str) -> dict[str, list[str]]:
    """{role word: its other words} for the roles the message calls the user's ("my mum",
    "our new GP"); "a doctor visit" is nobody's in particular."""
    out: dict[str, list[str]] = {}
    for m in OWNED.finditer(message):
        for word in m.groups():
            if word and (others := same_role(word)):
                out[word.lower()] = others
    return out


def same_role(word: str) -> list[str]:
    """The other words for the role `word` names ("mum" -> mother, mom; "doctor" -> gp),
    so a search for one finds what was said with another."""
    low = word.lower()
    group = _role_groups().get(ROLE_WORDS.get(low, low), ())
    return [w for w in group if w != low]


@functools.cache
def _role_groups() -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = {}
    for word, role in ROLE_WORDS.items():
        if " " not in role:  # "kids' doctor" describes; it is no word to search for
            groups.setdefault(role, [role]).append(word)
    return {role: tuple(words) for role, words in groups.items()}
