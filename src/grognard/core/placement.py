"""Where a scene's words go: placed once, here, when a face builds the scene (issue 30, docs/FACE-CONTRACT.md).

Every face's ``scene`` ends with :func:`place`. It gives each word of the scene (a ``text`` shape, a shape's
``label``, a shape's inner ``text``) its final place, anchor and size, so that no two words and no word and
mark (a unit's shape: :func:`is_mark`) overlap; a word that finds no room beside its mark is moved further
off along a leader (a thin line back to its mark or place), then drawn smaller, then shortened (its whole
words kept in its ``title``), never dropped. After it, every word of the scene is a ``text`` shape:

- a ``label`` becomes a ``text`` shape right after its shape, ``word: "name"``, ``of``: the shape's ``id``;
- an inner ``text`` becomes one too, ``word: "inside"``, on its mark when it fits there and is free; on a man with a
  ``glyph`` (the glyph is on his base) it is his id, ``word: "tag"``, under his base or beside it;
- a word moved off its mark or place carries ``leader``: ``[[x, y], [x, y]]``, from the mark to the word.

The page (``web/static/table.js``) and the painters draw the words where they are, at ``size * unit`` inches
(:func:`unit`, the scene's ``unit``), never moving nor enlarging them. Widths are measured by one estimate,
:func:`text_width` (DejaVu Sans Bold's advances, the page's font at its widest weight), which the tests use too.

>>> scene = {"x0": 0, "y0": 0, "width": 50, "height": 50, "layers": [{"name": "units", "shapes": [
...     {"kind": "figure", "x": 10, "y": 10, "r": 0.5, "id": "A", "label": "A"},
...     {"kind": "figure", "x": 10.8, "y": 10, "r": 0.5, "id": "B", "label": "B"}]}]}
>>> shapes = place(scene)["layers"][0]["shapes"]
>>> [(s["kind"], s.get("text"), s.get("of")) for s in shapes]
[('figure', None, None), ('text', 'A', 'A'), ('figure', None, None), ('text', 'B', 'B')]
>>> overlaps(scene_words(place(scene)), scene_marks(place(scene)))
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Shape = dict[str, Any]
Box = tuple[float, float, float, float]  # left, bottom, right, top: table inches, y up

# DejaVu Sans Bold's advance widths (em) of ' ' to '~': the page's font (style.css) at its widest weight, so a
# word is never wider on the page than measured here (Arial, the page's second choice, is narrower)
_ASCII = [
    float(w)
    for w in """0.348 0.456 0.521 0.838 0.696 1.002 0.872 0.306 0.457 0.457 0.523 0.838 0.38 0.415 0.38 0.365 0.696
    0.696 0.696 0.696 0.696 0.696 0.696 0.696 0.696 0.696 0.4 0.4 0.838 0.838 0.838 0.58 1 0.774 0.762 0.734 0.83
    0.683 0.683 0.821 0.837 0.372 0.372 0.775 0.637 0.995 0.837 0.85 0.733 0.85 0.77 0.72 0.682 0.812 0.774 1.103
    0.771 0.724 0.725 0.457 0.365 0.457 0.838 0.5 0.5 0.675 0.716 0.593 0.716 0.678 0.435 0.716 0.712 0.343 0.343
    0.665 0.343 1.042 0.712 0.687 0.716 0.716 0.493 0.595 0.478 0.712 0.652 0.924 0.645 0.652 0.582 0.712 0.365
    0.712 0.838""".split()
]
_OTHER = {"…": 1.0, "°": 0.5, "▲": 0.769}
WIDE = 0.84  # em: any other character (✕, ×, ↻: 0.838 in DejaVu Sans)
ASCENT, DESCENT = 0.928, 0.236  # em above and below the baseline: the font's line box, what getBBox measures
GAP = 0.12  # em kept clear between a word and what it is placed beside
INNER = 0.9  # the share of a mark's width and height its inner word may fill
LEAST = 0.55  # times ``unit``: the smallest a word is drawn (below it, it moves out or is shortened)
REACH = 10.0  # times ``unit``: how far from its place a word is looked for a free spot
LEADER = 1.0  # line heights: a word further than this from its mark or place gets a leader


def unit(scene: dict[str, Any]) -> float:
    """The scene's size unit ``u``, inches: ``sqrt(width * height) / 50`` (words are ``size`` times it)."""
    return math.sqrt(float(scene["width"]) * float(scene["height"])) / 50


def text_width(text: str, size: float) -> float:
    """How wide ``text`` is drawn at font size ``size`` (any length unit: the answer is in it).

    >>> round(text_width("B10 4", 1.0), 3)
    3.198
    """
    em = 0.0
    for ch in text:
        k = ord(ch) - 32
        em += _ASCII[k] if 0 <= k < len(_ASCII) else _OTHER.get(ch, WIDE)
    return em * size


def word_box(x: float, y: float, text: str, size: float, anchor: str = "middle", rotate: float = 0.0) -> Box:
    """The box a word covers: baseline point (x, y) in table inches (y up), font size ``size`` inches,
    ``anchor`` start, middle or end, turned ``rotate`` degrees about (x, y) clockwise on the screen."""
    w = text_width(text, size)
    left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    box = (left, y - DESCENT * size, left + w, y + ASCENT * size)
    if not rotate:
        return box
    a = math.radians(-rotate)  # clockwise on a y-down screen is clockwise on the y-up table: negative
    c, s = math.cos(a), math.sin(a)
    corners = [(px - x, py - y) for px in (box[0], box[2]) for py in (box[1], box[3])]
    xs = [x + dx * c - dy * s for dx, dy in corners]
    ys = [y + dx * s + dy * c for dx, dy in corners]
    return min(xs), min(ys), max(xs), max(ys)


def meets(a: Box, b: Box, pad: float = 0.0) -> bool:
    """Whether boxes ``a`` and ``b`` overlap, or come within ``pad`` of each other."""
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def is_mark(shape: Shape, layer: str) -> bool:
    """A unit's shape, which no word may lie on: a ``figure``, or a shape with an ``id`` drawn over the terrain
    (a bunker, an aircraft, a vehicle), not a ring round the viewer's own units, a line, nor a word."""
    if shape["kind"] == "figure":
        return True
    return (
        "id" in shape
        and layer != "terrain"
        and shape["kind"] in ("rect", "circle", "polygon")
        and shape.get("cls") not in ("ring", "gunring")
    )


def mark_box(shape: Shape, u: float) -> Box:
    """The box a mark covers as the page draws it (a marker's outline, a polygon's glyph)."""
    kind = shape["kind"]
    if kind == "rect":
        x, y = float(shape["x"]), float(shape["y"])
        return x, y, x + float(shape["w"]), y + float(shape["h"])
    if kind == "polygon":
        xs = [float(p[0]) for p in shape["points"]]
        ys = [float(p[1]) for p in shape["points"]]
        box = (min(xs), min(ys), max(xs), max(ys))
        if shape.get("marker") and "x" in shape:  # its side's glyph, 0.4 u, drawn at (x, y)
            g = _marker_box(shape["marker"], float(shape["x"]), float(shape["y"]), 0.4 * u)
            box = (min(box[0], g[0]), min(box[1], g[1]), max(box[2], g[2]), max(box[3], g[3]))
        return box
    marker = shape.get("marker", "circle") if kind == "figure" else "circle"
    return _marker_box(marker, float(shape["x"]), float(shape["y"]), float(shape["r"]))


def _marker_box(marker: str, x: float, y: float, r: float) -> Box:
    if marker == "triangle":  # apex 1.15 r up, base 0.75 r down (table.js)
        return x - r, y - 0.75 * r, x + r, y + 1.15 * r
    if marker == "man":  # a standing man, r his half-height: 0.55 r either side, his head's top 0.96 r up
        return x - 0.55 * r, y - r, x + 0.55 * r, y + 0.96 * r
    k = 1.2 if marker == "diamond" else 1.0
    return x - k * r, y - k * r, x + k * r, y + k * r


# ------------------------------------------------------------------------------------------ what is taken
@dataclass
class _Taken:
    """The boxes taken so far (marks and placed words), in a grid of cells for quick look-up."""

    cell: float
    cells: dict[tuple[int, int], list[tuple[Box, str | None]]] = field(default_factory=dict)

    def _keys(self, box: Box) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                yield i, j

    def add(self, box: Box, owner: str | None = None) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append((box, owner))

    def free(self, box: Box, pad: float, own: str | None = None) -> bool:
        """Nothing taken lies within ``pad`` of ``box`` (but ``own``'s mark, which its words may touch)."""
        grown = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
        for key in self._keys(grown):
            for other, owner in self.cells.get(key, ()):
                if meets(box, other, pad) and (own is None or owner != own):
                    return False
        return True


# ------------------------------------------------------------------------------------------ placing
@dataclass
class _Word:
    """One word to place: its ``shape`` (a ``text`` shape, given its final x, y, anchor, size) and where it
    would rather be: ``near`` its ``owner``'s mark box (a name or an inner word) or at its own (x, y)."""

    shape: Shape
    role: str  # "inside", "name", "tag" (a man's id under his base) or "text"
    owner: str | None = None
    near: Box | None = None
    fit: float = 1.0  # times u: the size an inner word fits its mark at


def place(scene: dict[str, Any]) -> dict[str, Any]:
    """``scene`` with every word placed (see the module's doc); the scene given is not changed."""
    u = unit(scene)
    x0, y0 = float(scene.get("x0", 0.0)), float(scene.get("y0", 0.0))
    frame = (x0, y0, x0 + float(scene["width"]), y0 + float(scene["height"]))
    taken = _Taken(cell=2.0 * u)
    words: list[_Word] = []
    layers = []
    for lay in scene.get("layers", []):
        shapes: list[Shape] = []
        for original in lay.get("shapes", []):
            shape = dict(original)
            shapes.append(shape)
            if shape["kind"] == "text":
                words.append(_Word(shape, "text"))
                continue
            mark = mark_box(shape, u) if is_mark(shape, lay["name"]) else None
            if mark is not None:
                taken.add(mark, shape.get("id"))
            shapes += _pulled(shape, mark, u, words)
        layers.append(dict(lay, shapes=shapes))
    order = {"inside": 0, "tag": 1, "name": 1, "text": 2}
    for word in sorted(words, key=lambda w: (order[w.role], "id" not in w.shape and w.role == "text")):
        _settle(word, taken, frame, u)
    return dict(scene, unit=round(u, 4), layers=layers)


def _pulled(shape: Shape, mark: Box | None, u: float, words: list[_Word]) -> list[Shape]:
    """The ``text`` shapes of ``shape``'s inner words and label (taken off it), recorded in ``words``."""
    out: list[Shape] = []
    own = shape.get("id")
    box = mark if mark is not None else _shape_box(shape, u)
    inner, label = shape.pop("text", None), shape.pop("label", None)
    if inner not in (None, "") and box is not None and shape.get("glyph"):  # a man's id: a tag under his base
        tag = {"kind": "text", "text": str(inner), "word": "tag", "cls": "label", "of": own}
        out.append({k: v for k, v in tag.items() if v is not None} | {"size": float(shape.pop("size", 1.0))})
        words.append(_Word(out[-1], "tag", own, box))
    elif inner not in (None, "") and box is not None:
        word = {"kind": "text", "text": str(inner), "word": "inside", "cls": "label", "of": own}
        if shape.get("state"):  # its shape's state (a destroyed bunker's words struck through)
            word["state"] = shape["state"]
        fit = _fit(shape, box, str(inner), u)
        out.append({k: v for k, v in word.items() if v is not None})
        words.append(_Word(out[-1], "inside", own, box, fit))
    if label not in (None, "") and box is not None:
        name = {
            "kind": "text",
            "text": str(label),
            "word": "name",
            "cls": "label",
            "of": own,
            "state": shape.get("state"),
        }
        out.append({k: v for k, v in name.items() if v is not None})
        words.append(_Word(out[-1], "name", own, box))
    return out


def _shape_box(shape: Shape, u: float) -> Box | None:
    """Where a shape that is not a mark lies (for its words), or None (a shape of no size)."""
    if shape["kind"] in ("rect", "circle", "polygon", "figure") and ("x" in shape or "points" in shape):
        return mark_box(shape, u)
    if shape["kind"] == "polyline" and shape.get("points"):
        xs, ys = [float(p[0]) for p in shape["points"]], [float(p[1]) for p in shape["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    return None


def _fit(shape: Shape, box: Box, text: str, u: float) -> float:
    """The size (times u, at most 1) at which ``text`` fits inside ``shape``'s mark."""
    w, h = box[2] - box[0], box[3] - box[1]
    if shape["kind"] in ("figure", "circle"):
        r = min(w, h) / 2
        inches = min(1.3 * r, INNER * 2 * r / text_width(text, 1.0))
    else:
        inches = min(INNER * w / text_width(text, 1.0), INNER * h / (ASCENT + DESCENT))
    return min(1.0, inches / u)


def _settle(word: _Word, taken: _Taken, frame: Box, u: float) -> None:
    """Give ``word`` the first free place among its candidates: at its size, then smaller, then shortened;
    where none is free, its first place, said in ``crowded`` (the tests name it)."""
    shape = word.shape
    text = str(shape["text"])
    rotate = float(shape.get("rotate", 0.0))
    first: tuple[float, float, str, float, str] | None = None
    for words, size, places in _tries(word, text, u):
        s = size * u
        for x, y, anchor in places(s):
            box = word_box(x, y, words, s, anchor, rotate)
            if first is None:
                first = (x, y, anchor, size, words)
            if not _inside(box, frame) or (word.role != "inside" and word.near and meets(box, word.near)):
                continue
            on_mark = word.role == "inside" and word.near is not None and meets(box, word.near)
            if taken.free(box, 0.0 if on_mark else GAP * s, word.owner):  # on its mark, framed by it: no gap kept
                _commit(word, taken, (x, y, anchor, size, words), box, u)
                if words != text:
                    shape.setdefault("title", text)
                return
    assert first is not None
    x, y, anchor, size, words = first
    _commit(word, taken, first, word_box(x, y, words, size * u, anchor, rotate), u)
    shape["crowded"] = True


Places = Any  # a function of the font size (inches) giving (x, y, anchor) candidates


def _tries(word: _Word, text: str, u: float) -> Iterator[tuple[str, float, Places]]:
    """(words, size in u, candidates) in the order they are tried."""
    base = float(word.shape.get("size", 1.0)) if word.role in ("text", "tag") else 1.0
    if word.role == "inside":
        size = word.fit
        while size >= LEAST and word.near is not None:  # on its mark, as large as fits and is free
            yield text, size, lambda s: [_centre(word.near, s)]
            size = max(round(size * 0.85, 3), LEAST) if size > LEAST else 0.0
        base = max(word.fit, LEAST)
    sizes = sorted({base, max(min(base, LEAST), base * 0.8), max(min(base, LEAST), LEAST)}, reverse=True)
    for size in sizes:
        yield text, size, lambda s: _around(word, s, u)
    least = sizes[-1]
    for n in sorted({len(text) * 2 // 3, len(text) // 2, len(text) // 3, 1}, reverse=True):
        if 0 < n < len(text) - 1:
            yield text[:n] + "…", least, lambda s: _around(word, s, u)


def _centre(box: Box, s: float) -> tuple[float, float, str]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 - (ASCENT - DESCENT) / 2 * s, "middle"


def _around(word: _Word, s: float, u: float) -> Iterator[tuple[float, float, str]]:
    """Places for a word of font size ``s`` inches: beside its mark (above, below, right, left, the corners),
    or at its own place, then ever further off, nearest first, as far as ``REACH``."""
    g = GAP * s
    if word.near is not None:
        left, bottom, right, top = word.near
        cx, cy = (left + right) / 2, (bottom + top) / 2 - (ASCENT - DESCENT) / 2 * s
        up, down = top + g + DESCENT * s, bottom - g - ASCENT * s
        beside = [(cx, up, "middle"), (cx, down, "middle"), (right + g, cy, "start"), (left - g, cy, "end")]
        yield from beside[1::-1] + beside[2:] if word.role == "tag" else beside  # a tag: below first
        yield from ((right, up, "start"), (left, up, "end"), (right, down, "start"), (left, down, "end"))
        x, y, anchor = cx, cy, "middle"
    else:
        x, y, anchor = float(word.shape["x"]), float(word.shape["y"]), str(word.shape.get("anchor", "middle"))
        yield x, y, anchor
    step = 0.5 * (ASCENT + DESCENT) * s
    for i, j in _spiral(max(1, math.ceil(REACH * u / step))):
        yield x + i * step, y + j * step, anchor


_SPIRALS: dict[int, list[tuple[int, int]]] = {}


def _spiral(n: int) -> list[tuple[int, int]]:
    """Every step (i, j) with |i|, |j| <= n but (0, 0), nearest first."""
    if n not in _SPIRALS:
        steps = [(i, j) for i in range(-n, n + 1) for j in range(-n, n + 1) if i or j]
        _SPIRALS[n] = sorted(steps, key=lambda p: (p[0] ** 2 + p[1] ** 2, abs(p[0]), -p[1]))
    return _SPIRALS[n]


def _inside(box: Box, frame: Box) -> bool:
    e = 1e-6
    return box[0] >= frame[0] - e and box[1] >= frame[1] - e and box[2] <= frame[2] + e and box[3] <= frame[3] + e


def _commit(word: _Word, taken: _Taken, place: tuple[float, float, str, float, str], box: Box, u: float) -> None:
    """Write ``place`` (x, y, anchor, size, words) into the word's shape, take its box, draw its leader."""
    x, y, anchor, size, words = place
    shape = word.shape
    origin = word.near if word.near is not None else _box_of(shape, u)
    shape.update(x=round(x, 3), y=round(y, 3), anchor=anchor, size=round(size, 3), text=words)
    taken.add(box)
    if word.role == "inside" and word.near is not None and meets(box, word.near):
        return
    height = (ASCENT + DESCENT) * size * u
    if _apart(box, origin) > LEADER * height:
        a = _nearest(origin, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
        b = _nearest(box, a)
        shape["leader"] = [[round(a[0], 3), round(a[1], 3)], [round(b[0], 3), round(b[1], 3)]]


def _box_of(shape: Shape, u: float) -> Box:
    """A text shape's box where its face put it."""
    size = float(shape.get("size", 1.0)) * u
    x, y = float(shape["x"]), float(shape["y"])
    return word_box(x, y, str(shape["text"]), size, str(shape.get("anchor", "middle")), float(shape.get("rotate", 0)))


def _apart(a: Box, b: Box) -> float:
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return math.hypot(dx, dy)


def _nearest(box: Box, point: tuple[float, float]) -> tuple[float, float]:
    return min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3])


# ------------------------------------------------------------------------------------------ measuring
@dataclass(frozen=True)
class Drawn:
    """A word or a mark of a scene as drawn: its layer and index there, its box, its words or id, its owner."""

    layer: str
    index: int
    box: Box
    what: str
    of: str | None = None


def scene_words(scene: dict[str, Any]) -> list[Drawn]:
    """Every word of a placed scene: its ``text`` shapes' boxes."""
    u = unit(scene)
    out = []
    for lay in scene["layers"]:
        for k, s in enumerate(lay["shapes"]):
            if s["kind"] == "text":
                out.append(Drawn(lay["name"], k, _box_of(s, u), str(s["text"]), s.get("of")))
    return out


def scene_marks(scene: dict[str, Any]) -> list[Drawn]:
    """Every mark of a scene (:func:`is_mark`)."""
    u = unit(scene)
    return [
        Drawn(lay["name"], k, mark_box(s, u), str(s.get("id", s["kind"])), s.get("id"))
        for lay in scene["layers"]
        for k, s in enumerate(lay["shapes"])
        if is_mark(s, lay["name"])
    ]


def overlaps(words: list[Drawn], marks: list[Drawn]) -> list[tuple[Drawn, Drawn]]:
    """Every pair of words that overlap, and every word on a mark not its own: what :func:`place` prevents."""
    items = sorted(
        [(w.box[0], 0, k, w) for k, w in enumerate(words)] + [(m.box[0], 1, k, m) for k, m in enumerate(marks)]
    )
    found: list[tuple[Drawn, Drawn]] = []
    for n, (_, is_mark_a, _, a) in enumerate(items):
        for _, is_mark_b, _, b in items[n + 1 :]:
            if b.box[0] >= a.box[2]:
                break
            if (is_mark_a and is_mark_b) or not meets(a.box, b.box, -1e-6):
                continue
            word, other = (b, a) if is_mark_a else (a, b)
            if (is_mark_a or is_mark_b) and other.of is not None and other.of == word.of:
                continue
            found.append((word, other))
    return found
