"""A room's seats and players: who plays each seat (a player, a bot, nobody), joining, names, and the tokens
that open the host's, a player's and the projector link's pages (only their SHA-256 is kept)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from grognard.bots import ladder
from grognard.core.errors import GrognardError
from grognard.web.messages import RefusalCode
from grognard.web.protocol import Refused
from grognard.web.room.base import token_hash
from grognard.web.room.disk import Disk


class Seats(Disk):
    """Seats and players, read from and written to the room's meta."""

    def controller(self, seat: str) -> tuple[str, str | None]:
        """Who plays ``seat`` now: ``("player", id)``, ``("bot", name)`` or ``("empty", None)``."""
        entry = self.meta["seats"].get(seat) or {}
        if entry.get("player"):
            return "player", entry["player"]
        if entry.get("bot"):
            return "bot", entry["bot"]
        if self.meta["fill_bots"] and self.meta["status"] != "lobby":
            return "bot", self.meta["bot_names"].get(self.side_of(seat), self.ruleset.default_bot)
        return "empty", None

    def side_of(self, seat: str) -> str:
        if self.game is not None:
            try:
                return self.game.side_of(seat)
            except GrognardError:
                pass
        return str(self.meta["seat_sides"].get(seat, ""))

    def seats_of(self, player: str | None) -> list[str]:
        if player is None:
            return []
        return [seat for seat, entry in self.meta["seats"].items() if entry.get("player") == player]

    def player_by_token(self, token: str) -> str | None:
        digest = token_hash(token)
        for pid, player in self.meta["players"].items():
            if secrets.compare_digest(player["token"], digest):
                return str(pid)
        return None

    def is_host(self, token: str) -> bool:
        return secrets.compare_digest(self.meta["host"], token_hash(token))

    def whose_token(self, token: str) -> str | None:
        """Whose page ``token`` opens on this game: ``"host:"``, ``"player:p3"``, ``"projector:"``, or ``None``."""
        if self.is_host(token):
            return "host:"
        player = self.player_by_token(token)
        if player is not None:
            return f"player:{player}"
        return "projector:" if self.is_projector(token) else None

    def projector_token(self) -> str:
        """The token of the host page's projector link: it lets a projector page in past the spectators'
        limit and nothing else (32 hex digits, derived from the host token's hash: nothing more is stored)."""
        return hmac.new(self.meta["host"].encode(), f"projector {self.code}".encode(), hashlib.sha256).hexdigest()[:32]

    def is_projector(self, token: str) -> bool:
        return secrets.compare_digest(self.projector_token(), token)

    async def join(self, name: str, side: str | None) -> tuple[str, str]:
        """A new player: (player id, token); takes the first free seat of ``side`` (any side: None)."""
        if self.meta["status"] in ("over", "ended"):
            raise Refused(RefusalCode.OVER, "this game is over")
        if self.meta.get("locked"):
            raise Refused(RefusalCode.LOCKED, "the host has locked this room: nobody new may join (ask the host)")
        if len(self.meta["players"]) >= 4 * max(1, len(self.meta["seats"])):
            raise Refused(RefusalCode.FULL, "this room has too many players")
        self._name_free(name)
        token = secrets.token_urlsafe(24)
        pid = f"p{self.meta['next_player']}"
        self.meta["next_player"] += 1
        self.meta["players"][pid] = {"name": name, "token": token_hash(token)}
        for seat, entry in self.meta["seats"].items():
            if entry["player"] is None and entry["bot"] is None and (side is None or self.side_of(seat) == side):
                entry["player"] = pid
                break
        await self._save_meta()
        self.touch()
        return pid, token

    def _name_free(self, name: str, but: str | None = None) -> None:
        """Refuse ``name`` if a player of this room (other than ``but``) goes by it already, whatever its
        case: two pupils called "Sam" on the host's list and the projector could not be told apart."""
        taken = name.casefold()
        if any(pid != but and entry["name"].casefold() == taken for pid, entry in self.meta["players"].items()):
            raise Refused(
                RefusalCode.NAME_TAKEN,
                f"the name {name!r} is taken in this game: add an initial or a number "
                "(if it was you on another device, the host can remove the old one)",
            )

    def _remove(self, pid: str) -> None:
        """Player ``pid`` leaves: his seats are free, his pages closed, his token no longer works."""
        self.meta["players"].pop(pid, None)
        for entry in self.meta["seats"].values():
            if entry["player"] == pid:
                entry["player"] = None
        for conn in list(self.conns):
            if conn.player == pid:
                conn.kick("removed by the host")

    # ------------------------------------------------------------------ the host's commands on seats and players
    def _assign(self, args: dict[str, Any]) -> None:
        seat, player = args["seat"], args.get("player")
        if seat not in self.meta["seats"]:
            raise Refused(RefusalCode.BAD_SEAT, f"no seat {seat!r} in this game")
        if player is not None and player not in self.meta["players"]:
            raise Refused(RefusalCode.BAD_PLAYER, "no such player")
        self.meta["seats"][seat] = {"player": player, "bot": None}

    def _set_bot(self, args: dict[str, Any]) -> None:
        seat, bot = args["seat"], args.get("bot")
        if seat not in self.meta["seats"]:
            raise Refused(RefusalCode.BAD_SEAT, f"no seat {seat!r} in this game")
        if bot is not None and bot not in self.ruleset.bots:
            raise Refused(RefusalCode.BAD_BOT, f"bot: {ladder.unknown_bot(self.ruleset, bot)}")
        self.meta["seats"][seat] = {"player": None, "bot": bot}
        self.bots.pop(seat, None)

    def _rename(self, args: dict[str, Any]) -> None:
        player = self.meta["players"].get(args["player"])
        if player is None:
            raise Refused(RefusalCode.BAD_PLAYER, "no such player")
        self._name_free(args["name"], but=args["player"])
        player["name"] = args["name"]

    def _remove_players(self, args: dict[str, Any]) -> None:
        """``remove`` (one ``player``) or ``remove_many`` (``players``): all known, or nobody is removed."""
        pids = args["players"] if "players" in args else [args["player"]]
        unknown = [pid for pid in pids if pid not in self.meta["players"]]
        if unknown:  # checked first: a refused removal removes nobody
            raise Refused(RefusalCode.BAD_PLAYER, f"no such player: {', '.join(unknown[:5])}")
        for pid in pids:
            self._remove(pid)
