"""A deterministic synthetic brain: people, organisations, projects, documents, decisions.

The same `(size, seed)` always yields the same rows in the same order, so cached
vectors (keyed by `GENERATOR_VERSION`) stay valid across runs. Bump the version
whenever the generated text changes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

GENERATOR_VERSION = 1
SEED = 20261121

FIRST = """Ada Alan Alice Amara Amir Ana Andrei Anika Arjun Astrid Aziz Beatriz Ben Bilal Bjorn
Camila Carlos Chen Chiara Chloe Dalia Daniel Dara Dmitri Elena Elif Emeka Emil Esther Fatima
Felix Freya Gabriel Grace Hana Hassan Helga Hiro Ibrahim Ilse Ines Ingrid Isaac Ivan Jamal
Jana Javier Jin Joao Jonas Julia Kai Kamala Karim Kasia Kenji Kevin Kofi Lara Leila Leon Lina
Lucia Luis Maja Malik Marco Maria Marta Mateo Maya Mehmet Mei Mila Mohammed Nadia Naomi Nia
Niko Nora Olga Omar Oscar Paolo Pavel Priya Rafael Rahul Rania Ravi Rosa Ruth Sakura Samir
Sara Sean Sofia Soren Sun Tariq Tess Theo Tomas Uma Valentina Vera Viktor Wei Yara Yusuf Zara
Zoe Abebe Ayumi Bongani Chidi Dagny Eero Farid Goran Halima Imani Jorge Kalani Lars Mbali
Nadir Odile Petra Quentin Rohan Selin Tiago Ulla Vikram Wanjiru Xiomara Yosef Zainab""".split()

LAST = """Abara Adeyemi Alvarez Andersson Aoki Bakker Banerjee Becker Bianchi Borg Brennan Castillo
Chen Costa Dahl Dasgupta Diaz Dubois Eriksen Esposito Fischer Fontaine Garcia Gonzalez Gupta
Haddad Hansen Hartmann Hoffmann Hughes Ibrahim Ivanova Jansen Jensen Kaur Keller Khan Kim
Kowalski Kruger Larsen Lee Lindqvist Lopez Mahmoud Martin Meyer Moreau Muller Murphy Nakamura
Nguyen Nielsen Novak Okafor Okonkwo Olsen Ortiz Park Patel Pereira Petrov Popescu Quinn Raman
Reyes Richter Rossi Russo Sato Schmidt Schneider Silva Singh Smith Sokolov Suzuki Tanaka
Thomsen Torres Tran Varga Vogel Wagner Wang Weber Williams Wong Yamamoto Yilmaz Zhang Zimmer
Achebe Balogun Cardoso Delacroix Engstrom Ferreira Grunwald Halvorsen Ishikawa Jablonski
Kariuki Lemaire Mwangi Nordin Oyelaran Pichler Quispe Rasmussen Szabo Takahashi Uribe Vasquez
Wojcik Xu Yoshida Zielinski Abiodun Bergstrom Castellano Dimitrov Eze Falk""".split()

ROLES = """product manager, staff engineer, data scientist, designer, recruiter, sales lead,
account executive, CFO, founder, investor, researcher, nurse, teacher, lawyer, accountant,
architect, site reliability engineer, marketing director, support lead, operations manager,
program director, security analyst, journalist, photographer, chef, translator, consultant,
procurement officer, mentor, board member""".replace("\n", " ").split(", ")

CITIES = """Lisbon Berlin Nairobi Toronto Osaka Austin Lagos Oslo Melbourne Bogota Seoul Warsaw
Dublin Madrid Chennai Montreal Denver Porto Tallinn Cape Town Auckland Zurich Helsinki Lyon
Accra Mumbai Boston Vienna Prague Santiago""".split()

ORG_A = """Northwind Bluepeak Ironbark Silverline Redwood Brightwater Lumen Cobalt Harbor Meridian
Juniper Granite Summit Atlas Orbit Vertex Kestrel Willow Aurora Cedar Falcon Horizon Polaris
Sequoia Tidal Ember Quartz Sable Zephyr Beacon""".split()
ORG_B = """Labs Health Capital Logistics Foods Analytics Robotics Energy Bank Studio Ventures
Systems Media Insurance Pharma Clinic Academy Foundation Partners Motors""".split()

ORG_C = """Group Collective Cooperative Partners Holdings Works Company Institute Network
Trust""".split()

ADJ = """Atlas Beacon Cascade Delta Echo Falcon Granite Harbor Indigo Jasper Kestrel Lantern Maple
Nimbus Onyx Prairie Quasar Raven Sierra Tundra Umber Vesper Willow Xenon Yarrow Zenith Amber
Basalt Cinder Dune Ember Fjord Glacier Heron Iris Juniper Kelp Lotus Mesa Nova Opal Pebble
Quill Ridge Sable Thistle Umbra Velvet Wren Yonder Zephyr Aspen Birch Coral Drift Fable Grove
Hollow Inlet Jade Knoll Lagoon Marsh Nectar Orchid Pine Reef Slate Tide Vale Whisper Alder
Bramble Canyon Dawn Elm Flint Garnet Hazel Ivory Kite Lark Moss North Olive Plume Rowan Sage
Topaz Ursa Vista Wild Azure Bluff Copper Dusk Frost Gale Hush Isle Loch Moor""".split()

NOUNS = """migration rollout redesign audit onboarding pipeline dashboard platform gateway ledger
forecast campaign roadmap pilot integration refactor benchmark survey study program initiative
launch upgrade consolidation review playbook framework service portal tracker scheduler
warehouse index catalog registry assistant chatbot classifier recommender search billing
payments invoicing payroll compliance privacy security backup recovery monitoring alerting
logging analytics reporting budgeting hiring training mentoring fundraising outreach
partnership procurement inventory shipping returns pricing subscription loyalty referral
translation localisation accessibility documentation testing release deployment provisioning
capacity latency caching sharding replication encryption authentication identity permissions
telemetry observability experimentation segmentation attribution churn retention growth
renewal contract negotiation vendor supplier clinic curriculum grant research newsletter
podcast conference workshop retreat offsite hackathon""".split()

TOPICS = """customer churn, quarterly revenue, cloud costs, data retention, GDPR requests, on-call
load, hiring plan, sales pipeline, clinical trial, patient intake, lesson plans, student
feedback, supply chain delays, warehouse robots, carbon footprint, solar panels, battery
storage, fraud detection, credit risk, loan approvals, mobile app crashes, search relevance,
page load time, database migration, Kubernetes upgrade, Postgres replication, vendor contract,
office move, parental leave, travel policy, security incident, phishing training, password
rotation, SSO rollout, API rate limits, pricing tiers, free trial conversion, onboarding emails,
support backlog, NPS survey, brand refresh, trade show, board deck, seed round, Series A,
investor update, expense reports, tax filing, annual audit, legal review, open source license,
accessibility audit, translation memory, podcast launch, newsletter growth, community forum,
volunteer program, grant application, research paper, lab equipment, sourdough starter,
wedding planning, marathon training, kitchen renovation, garden irrigation, sailing course,
language exchange, chess club, photography exhibit, film festival, book club""".replace(
    "\n", " "
).split(", ")

VERBS = """adopt postpone cancel approve migrate consolidate outsource insource pause expand
standardise deprecate replace hire freeze renegotiate pilot sunset prioritise split merge
automate document open-source encrypt""".split()

DOC_KINDS = """Memo Report Proposal Spec Notes Minutes Brief Plan Retrospective Postmortem
Letter Contract Invoice Draft Guide Checklist""".split()

QUALIFIERS = """urgent tentative final revised confidential early-stage long-term cross-team
customer-facing internal experimental cost-saving high-risk low-effort regional global""".split()


@dataclass(frozen=True)
class SyntheticBrain:
    """Entity rows in insertion order and relations between them (by (type, name))."""

    entities: list[tuple[str, str, str, dict[str, Any]]]
    relations: list[tuple[tuple[str, str], str, tuple[str, str]]]


def _people(rng: random.Random, n: int) -> list[str]:
    pairs = [f"{f} {last}" for f in FIRST for last in LAST]
    rng.shuffle(pairs)
    names = pairs[:n]
    i = 0
    while len(names) < n:  # more people than name pairs: add a middle initial
        f, last = pairs[i % len(pairs)].split(" ", 1)
        names.append(f"{f} {chr(65 + i // len(pairs) % 26)}. {last}")
        i += 1
    return names


def _sample_product(rng: random.Random, n: int, *parts: list[str]) -> list[tuple[str, ...]]:
    """`n` distinct combinations, one word from each list (numbered once they run out)."""
    sizes = [len(p) for p in parts]
    total = 1
    for size in sizes:
        total *= size
    out = []
    for k, code in enumerate(rng.sample(range(total), min(n, total)) * (n // total + 1)):
        if len(out) == n:
            break
        combo = []
        for part, size in zip(parts, sizes, strict=True):
            combo.append(part[code % size])
            code //= size
        if k >= total:
            combo[-1] += f" {k // total + 1}"
        out.append(tuple(combo))
    return out


def generate(size: int = 100_000, seed: int = SEED) -> SyntheticBrain:
    """About `size` entities (30% people, 5% orgs, 15% projects, 35% documents, 15% decisions)
    and about two relations per entity."""
    rng = random.Random(seed)
    n_people, n_orgs, n_projects = int(size * 0.30), max(int(size * 0.05), 5), int(size * 0.15)
    n_decisions = int(size * 0.15)
    n_docs = size - n_people - n_orgs - n_projects - n_decisions
    people = _people(rng, n_people)
    orgs = [" ".join(p) for p in _sample_product(rng, n_orgs, ORG_A, ORG_B, ORG_C)]
    projects = [" ".join(p) for p in _sample_product(rng, n_projects, ADJ, NOUNS)]
    rows: list[tuple[str, str, str, dict[str, Any]]] = []
    rels: list[tuple[tuple[str, str], str, tuple[str, str]]] = []
    org_of: dict[str, str] = {}

    for name in orgs:
        topic = rng.choice(TOPICS)
        rows.append(
            (
                "Organization",
                name,
                f"{rng.choice(CITIES)} company working on {topic} "
                f"and {rng.choice(NOUNS)}; known for its {rng.choice(QUALIFIERS)} "
                f"{rng.choice(NOUNS)} team.",
                {"website": _slug(name) + ".example"},
            )
        )
    for name in people:
        org, role = rng.choice(orgs), rng.choice(ROLES)
        org_of[name] = org
        topic, topic2 = rng.sample(TOPICS, 2)
        desc = (
            f"{role.capitalize()} at {org} in {rng.choice(CITIES)}; cares about {topic} "
            f"and asked about {topic2} last {rng.choice(['week', 'month', 'quarter'])}."
        )
        rows.append(
            (
                "Person",
                name,
                desc,
                {
                    "role": role,
                    "organization": org,
                    "email": _slug(name) + "@" + _slug(org) + ".example",
                },
            )
        )
        rels.append((("Person", name), "works_at", ("Organization", org)))
    for name in projects:
        lead = rng.choice(people)
        topic = rng.choice(TOPICS)
        desc = (
            f"{rng.choice(QUALIFIERS).capitalize()} {name.split(' ', 1)[1]} effort led by {lead} "
            f"at {org_of[lead]} to improve {topic}; next milestone is the "
            f"{rng.choice(NOUNS)} {rng.choice(['review', 'demo', 'launch', 'handover'])}."
        )
        rows.append(
            ("Project", name, desc, {"status": rng.choice(["active", "paused", "done", "idea"])})
        )
        rels.append((("Person", lead), "leads", ("Project", name)))
        for member in rng.sample(people, 2):
            rels.append((("Person", member), "works_on", ("Project", name)))
    doc_names = [
        f"{k}: {t} {n}" for k, t, n in _sample_product(rng, n_docs, DOC_KINDS, TOPICS, NOUNS)
    ]
    for name in doc_names:
        author, project = rng.choice(people), rng.choice(projects)
        t1, t2, t3 = rng.sample(TOPICS, 3)
        body = (
            f"Covers {t1}, {t2} and the {rng.choice(QUALIFIERS)} {rng.choice(NOUNS)} "
            f"for {project}. Open question: should we {rng.choice(VERBS)} the "
            f"{rng.choice(NOUNS)} before {rng.choice(['Q1', 'Q2', 'Q3', 'Q4'])}? "
            f"Mentions {t3}."
        )
        rows.append(
            (
                "Document",
                name,
                f"Written by {author} about {t1} for {project}.",
                {"body": body, "tags": [w for w in t1.lower().split()][:3]},
            )
        )
        rels.append((("Person", author), "authored", ("Document", name)))
        rels.append((("Document", name), "about", ("Project", project)))
    for i in range(n_decisions):
        project, owner = rng.choice(projects), rng.choice(people)
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        name = f"{verb.capitalize()} the {noun} for {project} (#{i + 1})"
        rationale = (
            f"Because {rng.choice(TOPICS)} and {rng.choice(TOPICS)} outweigh the "
            f"{rng.choice(QUALIFIERS)} {rng.choice(NOUNS)} risk."
        )
        rows.append(
            (
                "Decision",
                name,
                f"{owner} decided to {verb} the {noun} for {project}.",
                {
                    "decided_on": f"20{rng.randint(22, 26)}-{rng.randint(1, 12):02d}-"
                    f"{rng.randint(1, 28):02d}",
                    "rationale": rationale,
                },
            )
        )
        rels.append((("Decision", name), "for", ("Project", project)))
        rels.append((("Person", owner), "decided", ("Decision", name)))
    # Acquaintances top the graph up to about two relations per entity.
    while len(rels) < 2 * size:
        a, b = rng.sample(people, 2)
        rels.append((("Person", a), "knows", ("Person", b)))
    order = list(range(len(rows)))
    rng.shuffle(order)  # interleave types, as a real brain fills up
    return SyntheticBrain([rows[i] for i in order], list(dict.fromkeys(rels)))


def queries(brain: SyntheticBrain, n: int = 200, seed: int = SEED) -> list[tuple[str, str]]:
    """(kind, query) pairs: common terms, rare names, multi-word, questions, FTS junk, noise."""
    rng = random.Random(seed + 1)
    people = [name for t, name, _, _ in brain.entities if t == "Person"]
    projects = [name for t, name, _, _ in brain.entities if t == "Project"]
    kinds: dict[str, list[str]] = {
        "common term": [
            rng.choice(NOUNS + ["project", "review", "risk", "team", "plan"]) for _ in range(n // 6)
        ],
        "rare name": [rng.choice(people) for _ in range(n // 6)],
        "multi-word": [" ".join(rng.sample(TOPICS, 2)) for _ in range(n // 6)],
        "question": [
            f"who leads {rng.choice(projects)} and what is the next milestone?"
            for _ in range(n // 6)
        ],
        "fts junk": [
            rng.choice(['AND OR "', "NEAR(", "*", "^", "-", ":", "(", ")", '"']).join(
                [rng.choice(NOUNS), rng.choice(TOPICS), rng.choice(["NOT", "OR", "*", ""])]
            )
            for _ in range(n // 6)
        ],
    }
    kinds["noise (must find nothing)"] = [
        noise_query(rng) for _ in range(n - sum(len(v) for v in kinds.values()))
    ]
    return [(kind, q) for kind, qs in kinds.items() for q in qs]


def noise_query(rng: random.Random) -> str:
    """Two or three made-up words that occur nowhere in any generated text."""
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    return " ".join(
        "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(4)) + "q"
        for _ in range(rng.randint(2, 3))
    )


def iter_batches(rows: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def _slug(text: str) -> str:
    return "".join(c for c in text.lower().replace(" ", ".") if c.isalnum() or c == ".")
