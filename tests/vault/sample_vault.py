"""A realistic Obsidian-style vault, written file by file into a folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from brainbridge.brain import Brain

BIG_NOTE_BYTES = 5 * 1024 * 1024

NOTES: dict[str, str] = {
    "LiteLLM.md": """---
title: LiteLLM
type: Project
tags: [infra, llm]
aliases: [litellm proxy, LLM gateway]
status: active
---
# LiteLLM

The LLM gateway in front of every model call. Owner: [[Priya Raman|Priya]].
Open problems: [[Config drift#Symptoms]] and the [budget alerts](ops/budget-alerts.md).
""",
    "people/Priya Raman.md": """---
title: Priya Raman
type: Person
tags: person
role: site reliability engineer
---
Priya runs the gateway on-call rotation. See [[LiteLLM]].
""",
    "Config drift.md": """---
title: Config drift between staging and prod
type: Decision
tags: [incident]
aliases: [config-drift]
---
## Symptoms
Staging routed `gpt-4o` to a different deployment than prod; max_tokens differed.

## Decision
One config file in git, rendered per environment. Follow-up in [[ops/Budget alerts]].
""",
    "ops/budget-alerts.md": """---
title: Budget alerts
tags:
  - ops
  - "#alerts"
---
Alert at 80 % of the monthly budget. Back to the [hub](../LiteLLM.md).
Runbook: [[Runbooks/Restart the proxy]].
""",
    "ops/Runbooks/Restart the proxy.md": """# Restart the proxy

1. Drain traffic.
2. `systemctl restart proxy`.
""",
    "Daily/2024-05-02.md": """Met [[Priya Raman]] about [[Config drift]]. Ideas: [[Unwritten idea]].
Reading: [docs](https://docs.example.com/guide.md).
""",
    "Broken frontmatter.md": """---
title: [unclosed
type: Decision
---
The body still counts even though the YAML above is broken.
""",
    "Weird type.md": """---
type: Spaceship
---
A type the brain does not know falls back to Document.
""",
    "empty.md": "",
    ".obsidian/workspace.md": "Obsidian's own state; never a note.\n",
    ".obsidian/plugins/x/README.md": "Plugin readme; never a note.\n",
    "attachments/diagram.png": "not markdown",
}


def write_vault(root: Path) -> Path:
    """Write the sample vault under `root` (plus a non-UTF-8 note and a 5 MB note)."""
    for rel, text in NOTES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    # Latin-1 bytes, as an old editor would have saved them.
    (root / "Café notes.md").write_bytes(
        b"---\ntitle: Caf\xe9 notes\n---\nCaf\xe9 au lait, cr\xe8me br\xfbl\xe9e and a [[LiteLLM]] link.\n"
    )
    line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 8 + "\n"
    big = "---\ntitle: Huge log\n---\nHuge log start.\n" + line * (BIG_NOTE_BYTES // len(line) + 1)
    (root / "logs").mkdir(exist_ok=True)
    (root / "logs" / "huge.md").write_text(big, encoding="utf-8")
    return root


async def snapshot(brain: Brain) -> tuple[dict[str, dict[str, Any]], set[tuple[str, str]]]:
    """Notes by name (as exported) and the `links_to` pairs (source name, target name)."""
    rows = [json.loads(line) for line in await brain.export_jsonl()]
    # Passages have their own tests (test_passages.py); here a note is one entity.
    entities = {r["name"]: r for r in rows if r["kind"] == "entity" and r["type"] != "Passage"}
    links = {
        (r["src"]["name"], r["dst"]["name"])
        for r in rows
        if r["kind"] == "relation" and r["type"] == "links_to"
    }
    return entities, links
