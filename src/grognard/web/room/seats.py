"""A room's seats and players: who plays each seat (a player, a bot, nobody), joining, names, and the tokens
that open the host's, a player's and the projector link's pages (only their SHA-256 is kept)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

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
