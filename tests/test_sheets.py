"""grognard sheet: the printed PDF read back (pypdf: its text and its pages).

The card carries the sequence of play, the options in force and every odds table's figures (as the options
read them); Omaha's setup pages list the obstacles the seeded dice rolled, the same as ``grognard play omaha
--seed N`` plays; the B-17 pages draw the table layout. Bad input gets one line and writes nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from grognard.analysis.odds import table_json
from grognard.rulesets import get
from grognard.sheets.card import percent
from terminal_driver import run_cli


def sheet(tmp_path: Path, ruleset: str, *args: str, name: str = "sheet.pdf") -> tuple[list[str], str]:
    """Run ``grognard sheet``; the text of each page (its words, one space apart) and what it printed."""
    out = tmp_path / name
    done = run_cli("sheet", ruleset, "-o", str(out), *args)
    assert done.returncode == 0, done.stderr
    reader = PdfReader(str(out))
    pages = [" ".join(page.extract_text().split()) for page in reader.pages]  # words, one space apart
    assert f"({len(pages)} pages;" in done.stdout
    return pages, done.stdout


def played_obstacles(tmp_path: Path, seed: int, *options: str) -> list[tuple[str, int]]:
    """Each obstacle section's count in the game ``grognard play omaha --seed N`` records."""
    record = tmp_path / f"play-{seed}.jsonl"
    done = run_cli("play", "omaha", "--seed", str(seed), *options, "--turn-cap", "1", "--record", str(record), "-q")
    assert done.returncode == 0, done.stderr
    start = json.loads(record.read_text().splitlines()[1])
    return [(e["section"], e["count"]) for e in start["events"] if e["kind"] == "obstacles"]


def printed_obstacles(pages: list[str]) -> list[tuple[str, int]]:
    """The section table of the setup page: rows 'O3 12" 18" 4 1' (section, from, to, die, obstacles)."""
    setup = next(p for p in pages if "Setting up the beach" in p)
    rows = re.findall(r'\b(O\d+) \d+" \d+" (\d) (\d)\b', setup)
    return sorted(((name, int(count)) for name, _, count in rows), key=lambda row: int(row[0][1:]))


@pytest.mark.rule("omaha.8")
@pytest.mark.parametrize("seed", [4, 11])
def test_the_omaha_setup_sheet_has_the_obstacles_play_rolls_for_the_same_seed(tmp_path: Path, seed: int) -> None:
    pages, _ = sheet(tmp_path, "omaha", "--seed", str(seed), "--option", "germans=2")
    played = played_obstacles(tmp_path, seed, "--germans", "2")
    assert len(played) == 8 and printed_obstacles(pages) == played
    assert any('The beach from 0" to 48"' in p for p in pages)
    assert f"grognard play omaha --seed {seed} --option germans=2" in pages[0]


def test_two_seeds_print_two_boards(tmp_path: Path) -> None:
    four, _ = sheet(tmp_path, "omaha", "--seed", "4", name="four.pdf")
    eleven, _ = sheet(tmp_path, "omaha", "--seed", "11", name="eleven.pdf")
    assert printed_obstacles(four) != printed_obstacles(eleven)
    assert len(printed_obstacles(four)) == 24  # the seed's beach: 6 German players, 144" of 6" sections


@pytest.mark.rule("omaha.32")
def test_hidden_obstacles_are_printed_as_rolled_at_the_wall(tmp_path: Path) -> None:
    pages, _ = sheet(tmp_path, "omaha", "--option", "germans=1", "--option", "hidden_obstacles=on")
    setup = next(p for p in pages if "Setting up the beach" in p)
    assert "Obstacles are hidden" in setup and setup.count("roll when a squad reaches the wall") == 4
    assert "hidden_obstacles on (changed)" in pages[0]


def _row_percents(ruleset: str, name: str, options: dict[str, str]) -> list[str]:
    r = get(ruleset)
    table = table_json(next(t for t in r.analysis.odds_tables(r.resolve(options)) if t.name == name))
    from fractions import Fraction

    return [percent(Fraction(o["probability"])) for o in table["rows"][0]["outcomes"]]


@pytest.mark.rule("b17.57")
@pytest.mark.parametrize("options", [(), ("--option", "bomb_tie=hit")])
def test_the_card_prints_each_table_as_the_options_read_it(tmp_path: Path, options: tuple[str, ...]) -> None:
    pages, _ = sheet(tmp_path, "b17", *options)
    text = "\n".join(pages)
    assert "Sequence of play" in pages[0] and "Options in force" in pages[0]
    r = get("b17")
    for table in r.analysis.odds_tables(r.resolve(dict(o.split("=") for o in options[1:]))):
        assert f"{table.title} ({table.rule})" in text.replace("\n", " "), table.title
    bomb = "Hits of one bomb roll (bomber d6 against target d6) (b17.57)"
    after = text.replace("\n", " ").split(bomb, 1)[1]
    want = _row_percents("b17", "bomb", dict(o.split("=") for o in options[1:]))
    assert want == (["42%", "33%", "25%"] if options else ["58%", "17%", "25%"])
    assert after.split("average", 1)[1].split()[:3] == want
    assert ("bomb_tie hit (changed)" in pages[0]) is bool(options)


@pytest.mark.rule("b17.5", "b17.44", "b17.53")
def test_the_b17_sheet_draws_the_table_layout(tmp_path: Path) -> None:
    pages, _ = sheet(tmp_path, "b17", "--option", "enlarged=on")
    layout = next(p for p in pages if "Setting up the table" in p)
    assert "TARGET" in layout and "flak ring" in layout and "2 boxes of four" in layout
    for label in ("B1", "B4", "B5", "B8"):
        assert label in layout
    assert "Gauges" in pages[-1] and '4" attack and gun range (1:1)' in pages[-1]


def test_the_sheets_paint_each_faces_scene_in_words_a_reader_can_search(tmp_path: Path) -> None:
    """The beach and the B-17 table on the page are the faces' scenes through the one painter, in vectors: the
    scene's words (the water line, the sea wall, the landing zones; the entry end, the bombers) are on the page
    as text, with the sheet's own (bunker places and their exits, the entry zone, the clock hours)."""
    omaha, _ = sheet(tmp_path, "omaha", "--option", "germans=2", name="omaha.pdf")
    setup = next(p for p in omaha if "Setting up the beach" in p)
    assert all(word in setup for word in ("water line", "sea wall", "Z1", "Z6", "S1", "S6", "clear"))
    detail = next(p for p in omaha if 'The beach from 0" to 48"' in p)
    assert "G1, exit O1" in detail and "G2, exit O8" in detail and "(die " in detail
    b17, _ = sheet(tmp_path, "b17", name="b17.pdf")
    layout = next(p for p in b17 if "Setting up the table" in p)
    assert all(word in layout for word in ("American entry end", "entry zone", "B1", "B4", "TARGET", "12"))


def test_the_page_draws_the_painters_paths_and_words(tmp_path: Path) -> None:
    """A man (the painter's ``man`` marker: a path of lines, curves and a round head) and a word on a page."""
    from reportlab.platypus import SimpleDocTemplate

    from grognard.sheets.picture import scene_picture

    man = {"kind": "figure", "x": 3, "y": 3, "r": 0.5, "marker": "man", "side": "allies"}
    scene = {"width": 10, "height": 6, "layers": [{"name": "units", "shapes": [man, {"kind": "text", "x": 6,
             "y": 3, "text": "a lone man"}]}]}  # fmt: skip
    out = tmp_path / "man.pdf"
    SimpleDocTemplate(str(out)).build([scene_picture(scene, ("allies", "axis"), 2)])
    page = PdfReader(str(out)).pages[0]
    drawn = page.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    assert "a lone man" in page.extract_text() and " c h " in drawn  # curves closed: his shoulders, his head


@pytest.mark.rule("skirmish.83")
def test_the_skirmish_card_has_no_setup_pages_and_follows_the_ladder_option(tmp_path: Path) -> None:
    pages, _ = sheet(tmp_path, "skirmish", "--option", "ladder_push=one_die")
    text = " ".join(pages).replace("\n", " ")
    assert "Initiative: each side rolls a d6" in text and "Setting up" not in text
    assert "ladder_push one_die (changed)" in text and "one man may push alone" in text


def test_bad_input_gets_one_line_and_writes_nothing(tmp_path: Path) -> None:
    existing = tmp_path / "old.pdf"
    existing.write_bytes(b"keep me")
    cases = [
        (("chess", "-o", str(tmp_path / "a.pdf")), "error: unknown rule set 'chess'"),
        (("omaha", "-o", str(existing)), f"error: -o '{existing}': the file is already there; --force writes over it"),
        (
            ("omaha", "-o", str(tmp_path / "no" / "a.pdf")),
            f"error: -o '{tmp_path / 'no' / 'a.pdf'}': there is no folder",
        ),
        (("omaha", "-o", str(tmp_path / "a.svg")), "a sheet is a PDF; name the file FILE.pdf"),
        (("b17", "-o", str(tmp_path / "a.pdf"), "--option", "bomb_tie=maybe"), "error: option 'bomb_tie'"),
        # a seed read as play reads it: Python's int took 1_2 as 12 and said "Input should be a valid integer"
        (("omaha", "-o", str(tmp_path / "a.pdf"), "--seed", "1_2"), "'1_2' is not a whole number"),
        (("omaha", "-o", str(tmp_path / "a.pdf"), "--seed", "abc"), "'abc' is not a whole number"),
    ]
    for args, words in cases:
        done = run_cli("sheet", *args)
        assert done.returncode == 2, args
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], done.stderr
    assert existing.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.pdf"]
    done = run_cli("sheet", "omaha", "-o", str(existing), "--force")
    assert done.returncode == 0 and existing.read_bytes().startswith(b"%PDF")
