"""The B-17 raid through the real program: bots to the result, a person on either side, odds, simulate,
replay and render."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from picture_check import SVG, words
from terminal_driver import error_line, run_cli


def test_play_b17_flies_a_whole_raid_with_bots(tmp_path: Path) -> None:
    record = tmp_path / "raid.jsonl"
    done = run_cli("play", "b17", "--seed", "7", "--record", str(record))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "B-17 raid" in out and "Turn 1" in out and "box 1 placed" in out
    assert "Result:" in out and "bomb hits on the target" in out and "fighters shot down" in out
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0 and "every die and digest matches the record" in replayed.stdout
    picture = tmp_path / "table.svg"
    drawn = run_cli("render", "b17", str(record), "--turn", "3", "-o", str(picture))
    assert drawn.returncode == 0, drawn.stderr
    root = ET.parse(picture).getroot()
    said = words(root)
    assert "TARGET" in said and "flak range (b17.53)" in picture.read_text() and "B-17 raid - turn 3" in said[0]
    rings = [g.get("class") for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("t-gunring")]
    assert len(rings) >= 4 and set(rings) == {"t-gunring"}  # the 4" rings of every B-17's four gun positions
    focused = run_cli("render", "b17", str(record), "--turn", "3", "--focus", "b2", "-o", str(picture), "--force")
    assert focused.returncode == 0, focused.stderr
    root = ET.parse(picture).getroot()
    rings = [g.find(f"{SVG}title") for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("t-gunring")]
    assert [t.text.split()[0] for t in rings if t is not None] == ["B2"] * 4  # B2's rings alone, boldly
    assert "left waist" in words(root)  # each gun named
    wrong = run_cli("render", "b17", str(record), "--focus", "B9", "-o", str(picture), "--force")
    assert wrong.returncode == 2 and "--focus B9: no aircraft B9" in wrong.stderr
    fighter = run_cli("render", "b17", str(record), "--focus", "F1", "-o", str(picture), "--force")
    assert fighter.returncode == 2, fighter.stdout  # it drew the table with no rings at all and F1 as any other
    assert (
        fighter.stderr.strip()
        == "error: --focus F1: a fighter; --focus singles out a bomber's gun rings (B1, B2, B3, B4)"
    )


def test_a_person_flies_the_fighters_and_a_forbidden_move_is_refused_naming_the_rule() -> None:
    answers = "fly F1 3 20\nfly F1 20 0\npreview fly F1 6 30\nfly F1 6 30\nquit\n"
    done = run_cli("play", "b17", "--human", "german", "--seed", "5", stdin=answers)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert 'F1 must fly 6" straight ahead before turning, not 3" (b17.25)' in out
    assert '20" straight is more than the move (b17.29)' in out
    assert "preview fly F1 6 30: ends at" in out
    assert 'F1 flies 14"' in out


def test_a_person_flies_the_bombers_and_places_the_box() -> None:
    answers = "place 1 30,30 26,34 26,26 22,30\n1\nfly B1 3 95\n1\nquit\n"
    done = run_cli("play", "b17", "--human", "american", "--seed", "4", stdin=answers)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(b17.12)" in out  # a box 30" from the entry edge is refused
    assert "box 1 placed" in out
    assert "may turn at most 90 degrees, not 95 (b17.27)" in out


def test_odds_and_simulate_b17() -> None:
    odds = run_cli("odds", "b17", "--json")
    assert odds.returncode == 0, odds.stderr
    names = {t["name"] for t in json.loads(odds.stdout)["tables"]}
    assert {"attack", "gunner", "flak", "bomb", "bomb_load", "raid_wins"} <= names
    sim = run_cli("simulate", "b17", "-n", "6", "--jobs", "1", "--json")
    assert sim.returncode == 0, sim.stderr
    figures = json.loads(sim.stdout)["figures"]
    assert figures["games"] == 6
    assert {"bombers_lost", "fighters_lost", "bomb_hits", "damage_grade", "bomb_run_turn"} <= set(figures["metrics"])


def test_the_odds_of_every_b17_table_are_printed_in_full() -> None:
    """No cell cut to '0.…': the bomb loads of one to four bombers (0 to 32 hits) print one row per outcome."""
    odds = run_cli("odds", "b17")
    assert odds.returncode == 0, odds.stderr
    assert "…" not in odds.stdout
    assert "bombers 4" in odds.stdout and "10.6667" in odds.stdout  # four loads: 32 outcomes, mean 32 * 2/6


def test_a_referee_types_the_raids_dice_and_the_record_replays(tmp_path: Path) -> None:
    """Manual dice: each element's entry roll, then an opposed roll as two dice, the attacker's first."""
    from terminal_driver import DICE, Terminal

    record = tmp_path / "manual.jsonl"
    asked: list[tuple[str, int]] = []
    with Terminal("play", "b17", "--dice", "manual", "--seed", "1", "--record", str(record)) as t:
        while (prompt := t.next_prompt()) is not None:
            match = DICE.fullmatch(prompt)
            assert match, f"every question of a bot game is a roll: {prompt!r}"
            count = int(match["count"])
            asked.append((match["purpose"], count))
            if len(asked) == 1:  # the first element comes in at 6 o'clock, level
                t.send("2")
            elif match["purpose"].startswith("element E1: clock"):
                t.send("3 3")
            else:  # nothing else enters; every opposed roll is lost by the side rolling first
                t.send("1" if count == 1 else "1 6")
        code, out, err = t.finish()
    assert code == 0, err
    assert asked[0] == ("element E1 enters on an even roll", 1)
    assert ("element E1: clock hour of entry (2d6)", 2) in asked
    assert any(p.endswith("attacker die, defender die") and n == 2 for p, n in asked)
    assert "Result:" in out
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "every die and digest matches the record" in replayed.stdout


def test_a_person_draws_a_move_before_giving_it(tmp_path: Path) -> None:
    picture = tmp_path / "plan.svg"
    answers = f"draw {picture} fly F1 6 30\ndraw {tmp_path / 'bad.svg'} fly F1 3 30\nquit\n"
    done = run_cli("play", "b17", "--human", "german", "--seed", "5", stdin=answers)
    assert done.returncode == 0, done.stderr
    assert f"drew the table with fly F1 6 30 drawn in to {picture} (nothing given yet)" in done.stdout
    assert 'refused: F1 must fly 6" straight ahead before turning, not 3" (b17.25)' in done.stdout
    assert "preview (not given): fly F1 6 30" in picture.read_text(encoding="utf-8")
    assert not (tmp_path / "bad.svg").exists()


def test_a_seat_that_does_not_exist_is_one_error_line_naming_the_seats() -> None:
    from terminal_driver import error_line

    line = error_line(run_cli("play", "b17", "--human", "pilot"))
    assert line == "error: --human 'pilot': no such side or seat; sides: american, german; seats: American, German"


def test_a_move_typed_finer_than_the_hundredth_replays_from_its_record(tmp_path: Path) -> None:
    record = tmp_path / "fine.jsonl"
    orders = "fly F1 6.004 -30.004\nfly F2 6.336 -30.336\nfly F3 7.125 -44.125\nfly F4 6.995 -15.005\nquit\n"
    done = run_cli("play", "b17", "--human", "german", "--seed", "2", "--record", str(record), stdin=orders)
    assert done.returncode == 0, done.stderr
    assert "refused" not in done.stdout and "F4 flies" in done.stdout
    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "every die and digest matches the record" in replayed.stdout


def test_a_b17_record_given_as_omaha_is_refused_naming_both(tmp_path: Path) -> None:
    record = tmp_path / "raid.jsonl"
    assert run_cli("play", "b17", "--seed", "7", "-q", "--record", str(record)).returncode == 0
    before = record.read_bytes()
    drawn = error_line(run_cli("render", "omaha", str(record), "-o", str(tmp_path / "x.svg")))
    assert drawn == f"error: {record}: the record's rule set is b17, not omaha"
    resumed = error_line(run_cli("play", "omaha", "--resume", str(record)))
    assert resumed == f"error: --resume '{record}': the record's rule set is b17, not omaha"
    assert record.read_bytes() == before and not (tmp_path / "x.svg").exists()


def test_the_bots_line_leaves_out_the_side_people_fly() -> None:
    lines = run_cli("play", "b17", "--human", "german", "--seed", "2").stdout.splitlines()
    assert "bots: american book" in lines and "people: German (type 'help' at a prompt)" in lines
    lines = run_cli("play", "b17", "--human", "all", "--seed", "2").stdout.splitlines()
    assert "bots: none (people take every side)" in lines


def test_the_human_help_gives_each_rule_sets_own_seats() -> None:
    """B-17's help once offered Omaha's seat labels (A1,G2), which B-17 has not."""

    def words(*args: str) -> str:  # the help's words, read across the option box's wrapped lines
        return " ".join(run_cli(*args).stdout.replace("│", " ").split())

    b17 = words("play", "b17", "--help")
    assert "A1" not in b17 and "people take a side (american, german) or 'all'" in b17
    omaha = words("play", "omaha", "--help")
    assert "seats by name or label (A1,G6)" in omaha
