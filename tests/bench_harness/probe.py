"""A measurement for the harness tests: reads `probe_lib.VALUE` from the side's tree and
logs the order in which the sides ran to $PROBE_LOG."""

from __future__ import annotations

import os
from pathlib import Path


def _log(what: str) -> None:
    import probe_lib

    with Path(os.environ["PROBE_LOG"]).open("a") as fh:
        fh.write(f"{getattr(probe_lib, 'VALUE', '?')} {what}\n")


class Probe:
    def __init__(self, workdir: Path, quick: bool) -> None:
        self.quick = quick

    async def setup(self) -> dict[str, list[float]]:
        import probe_lib

        _log("setup")
        return {"setup": [float(probe_lib.VALUE)], "quick": [float(self.quick)]}

    async def round(self, i: int, n: int) -> dict[str, list[float]]:
        import probe_lib

        _log(f"round {i} {n}")
        return {"value": [float(probe_lib.VALUE)]}

    async def close(self) -> None:
        _log("close")
