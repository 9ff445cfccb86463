"""Pictures of a game, drawn from a seat's view (never from the state): SVG, and PNG through CairoSVG."""

from __future__ import annotations

from pathlib import Path

from grognard.core.errors import OptionError
from grognard.core.files import write_output


def write_picture(svg: str, path: Path, flag: str = "-o") -> None:
    """Write ``svg`` to ``path``: as is for ``.svg``, converted for ``.png`` (CairoSVG); else OptionError
    naming ``flag``, what the path was given as (``-o``, or ``draw`` at a prompt)."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".svg":
            write_output(path, svg)  # whole or not at all: a full disk leaves the picture there before
        elif suffix == ".png":
            try:
                import cairosvg
            except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
                raise OptionError(f"{flag} {str(path)!r}: PNG needs CairoSVG and the cairo library ({exc})") from None
            png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=1.25)  # bytes: the file is written
            write_output(path, png)  # by Python, so a failure says why (cairo's own says only a number)
        else:
            raise OptionError(f"{flag} {str(path)!r}: the picture must end in .svg or .png")
    except OSError as exc:
        raise OptionError(f"{flag} {str(path)!r}: cannot write ({exc.strerror or exc})") from None
