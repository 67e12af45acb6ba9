"""`kill -9` at several moments of `brain import-notes`: running it again ends with every
link a clean run stores (a note counts as done only once its links are stored)."""

from __future__ import annotations

import random
from pathlib import Path

from reliability.rig import Rig

NOTES = 300
LINKS_PER_NOTE = 4


def _vault(folder: Path) -> None:
    """`NOTES` notes in a few folders, each linking to `LINKS_PER_NOTE` others by title."""
    rng = random.Random(31)
    for i in range(NOTES):
        targets = rng.sample([j for j in range(NOTES) if j != i], LINKS_PER_NOTE)
        links = " ".join(f"[[Note {j}]]" for j in targets)
        path = folder / f"area{i % 5}" / f"note-{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# Note {i}\n\nAbout topic {i} of the reliability vault. See {links}.\n")


def _links(rig: Rig) -> set[tuple[str, str]]:
    return set(
        rig.rows(
            "SELECT s.name, d.name FROM relations r JOIN entities s ON s.id = r.src_id"
            " JOIN entities d ON d.id = r.dst_id WHERE r.type = 'links_to'"
        )
    )


def test_import_notes_killed_at_several_moments_then_run_again_stores_every_link(
    rig: Rig, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    _vault(vault)
    clean = Rig(tmp_path / "clean", rig.figures)
    clean.brain("init")  # as in the killed runs: the rehearsal times the import alone
    took = clean.timed(clean.argv("import-notes", str(vault)), clean.home)
    want = _links(clean)
    assert len(want) == NOTES * LINKS_PER_NOTE

    for r, share in enumerate((0.5, 0.6, 0.7, 0.8, 0.9)):
        killed = Rig(tmp_path / f"killed{r}", rig.figures)
        killed.brain("init")
        killed.kill_during(
            killed.argv("import-notes", str(vault)), random.Random(r), share * took, share * took
        )
        killed.brain("import-notes", str(vault))
        killed.check()
        rig.figures.operations += 1
        got = _links(killed)
        rig.figures.lost += len(want - got)
        assert got == want, f"killed at {share:.0%}: {len(want - got)} links lost"
    assert rig.figures.kills >= 1
