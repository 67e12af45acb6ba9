"""A generated Obsidian-style vault for timing `brain import-notes`.

    python -m benchmarks.notes_vault DIR [--notes 1500]

Each note has frontmatter, a title heading, five to nine sections of one to three
paragraphs, a list or a code block now and then, and wikilinks to other notes. The same
seed writes the same vault.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

WORDS = """install laptop docker python budget alert gateway proxy config drift staging prod
deploy release review meeting owner rotation oncall incident runbook restart backup restore
invoice receipt expense travel policy manager approve account access token vpn network
database migration index query cache latency timeout retry queue worker schedule report
design decision tradeoff metric dashboard customer contract renewal hiring interview
onboarding buddy reception office badge printer wifi calendar holiday leave payroll""".split()
SECTIONS = """Overview Context Laptop setup Accounts Steps Rollback Owners Links Decisions Risks
Open questions Timeline Budget Notes Follow-ups Checklist""".split()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 20))]
    return " ".join(words).capitalize() + "."


def note(rng: random.Random, i: int, count: int) -> str:
    lines = [
        "---",
        f"title: Note {i}",
        f"tags: [{rng.choice(WORDS)}, {rng.choice(WORDS)}]",
        "---",
        f"# Note {i}",
        "",
        " ".join(sentence(rng) for _ in range(2)),
        "",
    ]
    for s in rng.sample(SECTIONS, rng.randint(5, 9)):
        lines += [f"## {s}", ""]
        for _ in range(rng.randint(1, 3)):
            body = " ".join(sentence(rng) for _ in range(rng.randint(1, 4)))
            lines += [f"{body} See [[Note {rng.randrange(count)}]].", ""]
        if rng.random() < 0.3:
            lines += [f"- {sentence(rng)}" for _ in range(rng.randint(2, 5))] + [""]
        if rng.random() < 0.15:
            lines += ["```bash", f"brew install {rng.choice(WORDS)}", "```", ""]
    return "\n".join(lines)


def write(folder: Path, count: int = 1500, seed: int = 7) -> Path:
    """Write `count` notes into `folder` (in ten subfolders) and return it."""
    rng = random.Random(seed)
    for i in range(count):
        path = folder / f"area{i % 10}" / f"Note {i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note(rng, i, count), "utf-8")
    return folder


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--notes", type=int, default=1500)
    args = parser.parse_args()
    write(args.folder, args.notes)
