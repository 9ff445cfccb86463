"""A room: one game in the server, its players and seats, and the one actor that changes it.

Split by concern, each module a layer of ``Room``: ``base`` (what it holds, the actor's queue, telling the
pages), ``disk`` (keeping it on disk), ``seats`` (seats and players), ``acting`` (acting on the game),
``clock`` (the clock and the bots), ``room`` (the room itself: made, loaded, its actor, the host's commands).
"""

from grognard.web.protocol import Refused as Refused  # where the pages and tests have always found it
from grognard.web.room.base import dice_stream as dice_stream
from grognard.web.room.base import token_hash as token_hash
from grognard.web.room.clock import hold_action as hold_action
from grognard.web.room.room import CODE_LETTERS as CODE_LETTERS
from grognard.web.room.room import Room as Room
