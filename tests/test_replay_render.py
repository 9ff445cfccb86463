"""``grognard replay`` and ``grognard render``, through the real program.

Replay checks every die and digest and names the first line of a tampered
record; render draws a seat's view of a recorded game as well-formed SVG (or
PNG) with every bunker, squad, obstacle and the legend, in colours safe for
colour-blind eyes, a silenced bunker told from a destroyed one by shape.
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from grognard.core.dice import SeededDice
from grognard.core.record import replay
from grognard.rulesets import get
from grognard.rulesets.omaha.actions import PlaceBunkers
from picture_check import SVG, ids, look, unit, words_of
from picture_check import words as texts
from terminal_driver import error_line, lines_of, records_of, run_cli

SEED = "11"  # a one-German game that ends with one bunker silenced and the other destroyed
OKABE_ITO = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    done = run_cli("play", "omaha", "--germans", "1", "--seed", SEED, "--record", str(path), "-q")
    assert done.returncode == 0, done.stderr
    statuses = sorted(b.status for b in replay(path, get).game.state.bunkers.values())
    assert statuses == ["destroyed", "silenced"], f"seed {SEED} no longer ends with both; pick another seed"
    return path


def draw(record: Path, out: Path, *extra: str) -> ET.Element:
    done = run_cli("render", "omaha", str(record), "-o", str(out), *extra)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("drew turn ") and str(out) in done.stdout
    return ET.parse(out).getroot()


# ---------------------------------------------------------------------- replay
def test_replay_checks_every_die_and_digest(record: Path) -> None:
    done = run_cli("replay", str(record))
    assert done.returncode == 0, done.stderr
    n = len(lines_of(record))
    assert done.stdout.startswith(
        f"{record}: omaha game, seed {SEED}; {n} lines replayed, {n - 2} actions; "
        "every die and digest matches the record"
    )
    assert "Result: american win on turn" in done.stdout and "every exit is open" in done.stdout


@pytest.mark.parametrize("turn", [0, 1, 3, 5])
def test_replay_to_a_turn_stops_at_its_start(record: Path, turn: int) -> None:
    done = run_cli("replay", str(record), "--to", str(turn))
    assert done.returncode == 0, done.stderr
    assert f"stopped at the start of turn {turn} as asked (--to {turn})" in done.stdout
    assert "Result:" not in done.stdout
    # the first line not replayed is the first action taken in that turn
    replayed = int(re.search(r"; (\d+) lines replayed", done.stdout)[1])  # type: ignore[index]
    rebuilt = replay(records_of(record)[:replayed], get)
    assert rebuilt.game.turn == turn
    after = replay(records_of(record)[: replayed + 1], get).game
    assert after.turn == turn or (turn == 0 and after.turn == 1), "the next line is played in turn T"


def test_replay_to_beyond_the_end_replays_it_all(record: Path) -> None:
    done = run_cli("replay", str(record), "--to", "999")
    assert done.returncode == 0 and "stopped" not in done.stdout and "Result:" in done.stdout
    assert error_line(run_cli("replay", str(record), "--to", "-1")) == "error: --to -1: a turn is 0 or more"


def _edit(lines: list[str], number: int, change: Any) -> list[str]:
    """``lines`` with the JSON of line ``number`` (1-based) changed in place by ``change(line)``."""
    line = json.loads(lines[number - 1])
    change(line)
    return [*lines[: number - 1], json.dumps(line, separators=(",", ":")), *lines[number:]]


def _first(lines: list[str], test: Any) -> int:
    return next(number for number, text in enumerate(lines, 1) if number > 2 and test(json.loads(text)))


def _die(line: dict[str, Any]) -> None:
    dice = next(e for e in line["events"] if e["kind"] == "dice")
    dice["values"][-1] = dice["values"][-1] % 6 + 1


def _retarget(line: dict[str, Any]) -> None:
    line["action"] = re.sub(r"A(\d+)$", lambda m: f"A{int(m[1]) % 3 + 1}", line["action"])


def _digest(line: dict[str, Any]) -> None:
    line["digest"] = ("0" if line["digest"][0] != "0" else "1") + line["digest"][1:]


def _has_dice(line: dict[str, Any]) -> bool:
    return any(e["kind"] == "dice" for e in line["events"])


def _fire(line: dict[str, Any]) -> bool:
    return bool(re.fullmatch(r"fire B\d A\d", line.get("action", "")))


TAMPERINGS = {
    "a die value": lambda lines: (lambda n: (_edit(lines, n, _die), n))(_first(lines, _has_dice)),
    "an action's text": lambda lines: (lambda n: (_edit(lines, n, _retarget), n))(_first(lines, _fire)),
    "a digest": lambda lines: (_edit(lines, 9, _digest), 9),
    "the header": lambda lines: (_edit(lines, 1, lambda h: h.update(seed=12)), 1),
    "an event": lambda lines: (_edit(lines, 5, lambda line: line["events"].append({"kind": "holds"})), 5),
    "a deleted line": lambda lines: ([*lines[:6], *lines[7:]], 7),
    "a deleted start line": lambda lines: ([lines[0], *lines[2:]], 2),
    "junk inserted": lambda lines: ([*lines[:7], "junk", *lines[7:]], 8),
    "a JSON line of nothing": lambda lines: ([*lines[:7], "[1, 2]", *lines[7:]], 8),
    "a line cut short": lambda lines: ([*lines[:7], lines[7][:40], *lines[8:]], 8),  # the last: test_nothing_lost
    "NaN in the header": lambda lines: ([re.sub(r'"seed":\d+', '"seed":NaN', lines[0]), *lines[1:]], 1),
    "Infinity in a line": lambda lines: (
        [*lines[:5], re.sub(r'"digest":"\w+"', '"digest":-Infinity', lines[5]), *lines[6:]],
        6,
    ),
    "lines swapped": lambda lines: ([*lines[:5], lines[6], lines[5], *lines[7:]], 6),
}


@pytest.mark.parametrize("how", list(TAMPERINGS))
def test_replay_of_a_tampered_record_names_the_line(record: Path, tmp_path: Path, how: str) -> None:
    lines, number = TAMPERINGS[how](lines_of(record))
    assert lines != lines_of(record)
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    message = error_line(run_cli("replay", str(bad)))
    assert message.startswith(f"error: {bad}: line {number}: "), message
    if how == "a digest":
        assert "digest does not match" in message
    if how in ("junk inserted", "a line cut short", "NaN in the header", "Infinity in a line"):
        assert "not JSON" in message
    if how in ("a die value", "junk inserted"):  # render reads records the same way
        assert f"line {number}: " in error_line(run_cli("render", "omaha", str(bad), "-o", str(tmp_path / "x.svg")))
        assert not (tmp_path / "x.svg").exists()


def test_replay_of_a_missing_or_empty_record(tmp_path: Path) -> None:
    message = error_line(run_cli("replay", str(tmp_path / "none.jsonl")))
    assert "cannot read record" in message
    (tmp_path / "empty.jsonl").write_text("", encoding="utf-8")
    assert "line 1: the file is empty: the record must start with a header line" in error_line(
        run_cli("replay", str(tmp_path / "empty.jsonl"))
    )


def test_a_record_an_editor_saved_with_a_byte_order_mark_replays(record: Path, tmp_path: Path) -> None:
    """Notepad and other editors save UTF-8 with a byte order mark: the record still replays (as the web's
    upload of it does), every digest checked; it was refused as 'line 1: not JSON (Unexpected UTF-8 BOM)'."""
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + record.read_bytes())
    done = run_cli("replay", str(marked))
    assert done.returncode == 0, done.stderr
    assert "every die and digest matches the record" in done.stdout
    assert replay(marked, get).game.view(None) == replay(record, get).game.view(None)
    torn = tmp_path / "marked_torn.jsonl"  # a last line cut short is dropped at the right byte, the mark kept
    text = marked.read_bytes()
    torn.write_bytes(text[: len(text) - 30])
    kept = replay(torn, get, drop_torn=True)
    assert kept.actions == replay(record, get).actions - 1


def test_render_seat_spectator_is_the_view_of_no_seat(record: Path, tmp_path: Path) -> None:
    """--seat spectator, as replay --seat takes it, draws what no seat's --seat draws; an unknown seat's error
    names spectator among the choices."""
    done = run_cli("render", "omaha", str(record), "--turn", "3", "-o", str(tmp_path / "none.svg"))
    assert done.returncode == 0, done.stderr
    done = run_cli("render", "omaha", str(record), "--turn", "3", "--seat", "Spectator", "-o", str(tmp_path / "s.svg"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s.svg").read_bytes() == (tmp_path / "none.svg").read_bytes()
    line = error_line(run_cli("render", "omaha", str(record), "--seat", "Z9", "-o", str(tmp_path / "z.svg")))
    assert line.startswith("error: --seat 'Z9': no such side or seat") and line.endswith("or spectator"), line


def test_replay_of_a_record_that_stops_after_its_header(record: Path, tmp_path: Path) -> None:
    """A record of its header alone (a game stopped before its setup was written) says so, not that its
    'second line' is wrong: it has none; a second line that is not the start line is named as such."""
    alone = tmp_path / "header.jsonl"
    alone.write_text(lines_of(record)[0] + "\n", encoding="utf-8")
    message = error_line(run_cli("replay", str(alone)))
    assert message == f"error: {alone}: line 2: the record stops after its header: it has no start line", message
    swapped = tmp_path / "swapped.jsonl"
    swapped.write_text("\n".join([lines_of(record)[0], *lines_of(record)[2:]]) + "\n", encoding="utf-8")
    assert "line 2: the second line must be the start line" in error_line(run_cli("replay", str(swapped)))


# ---------------------------------------------------------------------- render
def test_render_draws_the_whole_table_at_the_end(record: Path, tmp_path: Path) -> None:
    """The face's scene through the one painter: every bunker, squad, obstacle section and exit, the beach's
    words, the heading's turn, figures and result."""
    game = replay(record, get).game
    view = game.view(None)
    root = draw(record, tmp_path / "end.svg")
    assert root.tag == f"{SVG}svg" and float(root.get("width", 0)) >= 600
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == f"Omaha Beach - turn {game.turn}, Americans act"
    words = texts(root)
    assert title.text in words
    assert f"RESULT: american win on turn {game.turn} (every exit is open)" in words
    drawn = ids(root)
    for bunker in view["bunkers"]:
        label = {"active": f"{bunker['label']} {bunker['defenders']}", "silenced": f"{bunker['label']} 0"}.get(
            bunker["status"], bunker["label"]
        )
        assert label in words and f"t-bunker s-{bunker['status']} unit" == drawn[bunker["label"]], label
    squads = [p["squad"]["label"] for p in view["americans"] if p["squad"] is not None]
    assert squads and all(label in words and label in drawn for label in squads)
    for word in ("sea wall", "water line", "exits open", "American casualties"):
        assert any(word in w for w in words), word
    assert words.count("▲ EXIT") == len(view["exits_open"]) == 2
    # obstacles: a cross for each one left, "clear" where none, "?" where not yet rolled, per section O1..
    counts = view["obstacles"]
    assert [i for i in drawn if re.fullmatch(r"O\d+", i)] == [f"O{i + 1}" for i in range(len(counts))]
    assert sum(w.count("✕") for w in words) == sum(c or 0 for c in counts)
    assert words.count("clear") == counts.count(0) and words.count("?") == counts.count(None)
    assert (tmp_path / "end.svg").read_text(encoding="utf-8").endswith("</svg>\n")


def test_render_focus_rings_a_squad_or_a_bunker_and_names_the_labels_when_none(record: Path, tmp_path: Path) -> None:
    root = draw(record, tmp_path / "f.svg", "--focus", "B2", "--turn", "2")
    rings = [g for g in root.iter(f"{SVG}g") if g.get("class") == "t-focus"]
    assert len(rings) == 1 and rings[0].find(f"{SVG}rect") is not None
    line = error_line(run_cli("render", "omaha", str(record), "--focus", "Q9", "-o", str(tmp_path / "q.svg")))
    assert (
        line.startswith("error: --focus Q9: no squad or bunker Q9 in this game (squads A1 to ") and "bunkers B" in line
    )
    assert not (tmp_path / "q.svg").exists()


def test_render_a_turn_and_a_seat(record: Path, tmp_path: Path) -> None:
    root = draw(record, tmp_path / "t3.svg", "--turn", "3")
    title = root.find(f"{SVG}title")
    assert title is not None and title.text is not None and title.text.startswith("Omaha Beach - turn 3, ")
    assert not any(w.startswith("RESULT") for w in texts(root)), "turn 3 is not the end"
    at3 = replay(record, get, until=lambda g: g.turn >= 3).game.view(None)
    squads = [p["squad"]["label"] for p in at3["americans"] if p["squad"] is not None]
    assert all(label in texts(root) for label in squads)

    for seat, who in [("A2", "American 2"), ("german", "German 1"), ("American 3", "American 3")]:
        root = draw(record, tmp_path / "seat.svg", "--seat", seat, "--turn", "2", "--force")
        title = root.find(f"{SVG}title")
        assert title is not None and title.text == f"Omaha Beach - turn 2, Americans act - view of {who}"


def test_render_png_is_a_real_png(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    done = run_cli("render", "omaha", str(record), "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    svg = ET.fromstring(get("omaha").render(replay(record, get).game.view(None)))
    assert abs(width - 1.25 * float(svg.get("width", 0))) <= 1 and abs(height - 1.25 * float(svg.get("height", 0))) <= 1
    assert 10_000 < len(data) < 2_000_000


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["omaha", "{record}", "-o", "{tmp}/x.txt"], "the picture must end in .svg or .png"),
        (["omaha", "{record}", "-o", "{tmp}/x.svg", "--turn", "99"], "--turn 99: the game ended on turn"),
        (["omaha", "{record}", "-o", "{tmp}/x.svg", "--turn", "-2"], "--turn -2: a turn is 0 or more"),
        (["omaha", "{record}", "-o", "{tmp}/x.svg", "--seat", "Z9"], "--seat 'Z9': no such side or seat"),
        (["omaha", "{record}", "-o", "{tmp}/x.svg", "--seat", "all"], "--seat 'all': name one seat"),
        (["chess", "{record}", "-o", "{tmp}/x.svg"], "unknown rule set 'chess'"),
        (["omaha", "{tmp}/none.jsonl", "-o", "{tmp}/x.svg"], "cannot read record"),
        (["omaha", "{record}", "-o", "{tmp}/no/such/dir/x.svg"], "there is no folder"),
        (["omaha", "{record}"], "Missing option '--output'"),
    ],
)
def test_render_refuses_bad_input_in_one_line(record: Path, tmp_path: Path, args: list[str], expected: str) -> None:
    filled = [a.format(record=record, tmp=tmp_path) for a in args]
    message = error_line(run_cli("render", *filled))
    assert expected in message, message
    assert not list(tmp_path.glob("x.*"))


# ---------------------------------------------------------------------- what the picture shows
def _game_with_bunkers(statuses: dict[str, str]) -> Any:
    """A two-German game just past the setup, its bunkers' statuses set by hand."""
    ruleset = get("omaha")
    game = ruleset.new_game(ruleset.resolve({"germans": 2}), SeededDice(3))
    game.apply("German 1", PlaceBunkers("G1", (1, 2)))
    game.apply("German 2", PlaceBunkers("G2", (4, 5)))
    for bunker in game.state.bunkers.values():
        status = statuses.get(bunker.label, "active")
        bunker.status = status
        if status != "active":
            bunker.defenders = 0
    return game


def _bunker_drawing(root: ET.Element, label: str) -> dict[str, Any]:
    """How bunker ``label`` is drawn: its box's fill and dashes (as the style sheet gives them), the line
    through its words, its words and its title."""
    group = unit(root, label)
    box = group.find(f"{SVG}rect")
    words = words_of(root, label)  # its words, placed beside it (its name: on its 3" it was too small to read)
    inside = words.find(f"{SVG}text[@class='name']")
    assert box is not None and inside is not None
    drawn, said = look(root, box), look(root, inside)
    title = group.find(f"{SVG}title")
    return {
        "fill": drawn.get("fill"),
        "dashed": "stroke-dasharray" in drawn,
        "crossed": said.get("text-decoration") == "line-through",
        "words": [inside.text, (title.text or "").rsplit(", ", 1)[-1] if title is not None else ""],
    }


def test_silenced_and_destroyed_bunkers_are_drawn_differently_by_shape_not_only_colour() -> None:
    game = _game_with_bunkers({"B2": "silenced", "B4": "destroyed"})
    root = ET.fromstring(get("omaha").render(game.view(None)))
    active, silenced, destroyed = (_bunker_drawing(root, label) for label in ("B1", "B2", "B4"))
    assert active == {"fill": "#56B4E9", "dashed": False, "crossed": False, "words": ["B1 4", "active"]}
    assert silenced == {"fill": "#fff", "dashed": False, "crossed": False, "words": ["B2 0", "silenced"]}
    assert destroyed == {"fill": "#fff", "dashed": True, "crossed": True, "words": ["B4", "destroyed"]}
    # told apart without colour: solid box, hollow box, hollow dashed box struck through; and each says what it is
    shapes = {(d["fill"] == "#fff", d["dashed"], d["crossed"]) for d in (active, silenced, destroyed)}
    assert len(shapes) == 3


def test_recorded_silenced_and_destroyed_bunkers_are_labelled(record: Path, tmp_path: Path) -> None:
    root = draw(record, tmp_path / "end.svg")
    state = replay(record, get).game.state
    for bunker in state.bunkers.values():
        drawn = _bunker_drawing(root, bunker.label)
        assert bunker.status in drawn["words"]
        assert drawn["dashed"] == drawn["crossed"] == (bunker.status == "destroyed")


def _rgb(colour: str) -> tuple[int, int, int]:
    named = {"white": "#FFFFFF", "black": "#000000"}
    colour = named.get(colour.lower(), colour).upper()
    assert re.fullmatch(r"#[0-9A-F]{6}", colour), f"unexpected colour {colour!r}"
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _colour_blind_safe(colour: str) -> bool:
    """An Okabe-Ito colour, a grey, or an Okabe-Ito colour washed out with white (a light ground)."""
    r, g, b = rgb = _rgb(colour)
    if r == g == b or f"#{r:02X}{g:02X}{b:02X}" in OKABE_ITO:
        return True
    for base in OKABE_ITO:
        channels = list(zip(rgb, _rgb(base), strict=True))
        # the share of the base colour that best explains the washed-out one (least squares), then check each channel
        amount = sum((255 - c) * (255 - p) for c, p in channels) / sum((255 - p) ** 2 for _, p in channels)
        if 0 < amount < 1 and all(abs(255 - amount * (255 - p) - c) <= 1.5 for c, p in channels):
            return True
    return False


def test_colours_are_the_pages_and_the_sides_okabe_ito(record: Path, tmp_path: Path) -> None:
    """The picture has the browser table's look: every colour in it is one of the page's (style.css, table.js),
    none typed a third time, and the sides are drawn in their Okabe-Ito colours (colour-blind safe)."""
    static = Path(__file__).resolve().parents[1] / "src/grognard/web/static"
    page = {
        c.upper()
        for name in ("style.css", "table.js")
        for c in re.findall(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b", (static / name).read_text())
    }
    pictures = [
        (tmp_path / "end.svg", draw(record, tmp_path / "end.svg")),
        (tmp_path / "t1.svg", draw(record, tmp_path / "t1.svg", "--turn", "1")),
    ]
    used = {
        c.upper() for path, _ in pictures for c in re.findall(r"#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b", path.read_text())
    }
    assert len(used) > 8 and sorted(used - page) == []
    sides = {
        element.get("fill", "").upper()
        for _, root in pictures
        for g in root.iter(f"{SVG}g")
        if g.get("data-id")
        for element in g
        if element.get("fill")
    }
    assert sides == {"#E69F00", "#56B4E9"} and all(_colour_blind_safe(c) for c in sides)
    assert _colour_blind_safe("#F3E9C6") is False, "the check itself tells a stray colour"


@pytest.mark.parametrize("module", ["grognard.render.paint", "grognard.render.look"])
def test_a_renderer_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """Importing a renderer before its rule set must not meet the rule set half-built (a circular import)."""
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
