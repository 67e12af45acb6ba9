"""The subject of the user's own facts, and the words questions use for their predicates.

Kept apart from `profile.py` (which learns the facts, with many regular expressions) so
that answering a prompt does not compile what only storing a turn needs.
"""

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
}
