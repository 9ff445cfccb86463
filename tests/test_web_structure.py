"""The web server is in rooms one can find (issue 30, item 4): routes in ``APIRouter`` modules by area, the room
lookup and the host's check as dependencies, no module of ``web/`` over ~500 lines nor function over ~80, and
the web reading a seat's view and the rule set's data, never a game's full state. Cheap: files read, no server."""

from __future__ import annotations

import ast
from pathlib import Path

from fastapi.routing import APIRoute, APIWebSocketRoute

WEB = Path(__file__).resolve().parents[1] / "src" / "grognard" / "web"


def _sources() -> list[Path]:
    return sorted(WEB.rglob("*.py"))


def test_every_route_is_in_a_router_by_area(tmp_path: Path) -> None:
    from grognard.web.app import create_app
    from grognard.web.deps import room_of
    from grognard.web.routes import editor, pages, play, replays, rooms, trials

    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    areas = (rooms.router, pages.router, replays.router, play.router, editor.router, trials.router)
    included = [getattr(route, "original_router", None) for route in app.routes]
    loose = [route for route in app.routes if isinstance(route, APIRoute | APIWebSocketRoute)]
    assert not loose and {id(r) for r in included if r is not None} == {id(r) for r in areas}  # and /static
    assert sum(len(router.routes) for router in areas) >= 20

    def lookups(dependant: object) -> set[object]:
        found = set()
        for dep in getattr(dependant, "dependencies", []):
            found.add(dep.call)
            found |= lookups(dep)
        return found

    for router in (rooms.router, pages.router, replays.router):
        for route in router.routes:
            assert isinstance(route, APIRoute)
            if "{code}" in route.path:  # the room of the code: looked up by the one dependency, never by hand
                assert room_of in lookups(route.dependant), route.path
    hosted = [r for r in rooms.router.routes if isinstance(r, APIRoute) and r.path.endswith(("record", "{code}"))]
    assert hosted and all("x-host-token" in {p.alias for d in lookups_params(r) for p in [d]} for r in hosted)


def lookups_params(route: APIRoute) -> list[object]:
    """Every header parameter of a route and its dependencies."""
    out: list[object] = []
    stack = [route.dependant]
    while stack:
        dependant = stack.pop()
        out.extend(dependant.header_params)
        stack.extend(dependant.dependencies)
    return out


def _sources() -> list[Path]:
    return sorted(WEB.rglob("*.py"))


def test_no_web_module_over_500_lines() -> None:
    """``Room`` is split by concern (seats and players, acting on the game, keeping it on disk, clock and bots)."""
    from grognard.web.room import Room
    from grognard.web.room.acting import Acting
    from grognard.web.room.clock import Clock
    from grognard.web.room.disk import Disk
    from grognard.web.room.seats import Seats

    assert {Acting, Clock, Disk, Seats} <= set(Room.__mro__)
    long = {str(p.relative_to(WEB)): n for p in _sources() if (n := len(p.read_text().splitlines())) > 500}
    assert not long, long


def test_the_web_reads_views_not_the_game_state() -> None:
    """The web reads a seat's view and the rule set's data: never ``game.state`` (the phase of the timer and of a
    page without a face come from the spectators' view)."""
    for path in _sources():
        text = path.read_text()
        assert "game.state" not in text and '"state", None' not in text, path.relative_to(WEB)


def test_no_web_function_over_80_lines() -> None:
    """create_app was one 391-line function, Room.host_op and pages.room_page over 80 lines each."""
    long = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 80:
                    long.append(f"{path.relative_to(WEB)}:{node.lineno} {node.name}: {length} lines")
    assert not long, long
