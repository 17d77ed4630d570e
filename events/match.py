"""Match scheduling: two players over several games on one board, one match per round.

The fold (:mod:`events.game`) keeps a board's matches as the referee names them
(``set_players``); the pages score them. Who moves first in which game, which match a game
belongs to, and when a naming starts the next match are decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from .game import MatchGame  # a game's number is all a match asks of it


@dataclass(slots=True)
class Match:
    """Two players over several games; ``first`` moves first in game 1, then they alternate.

    A board hosts one match per round: ``first_game`` is the board's number of the match's
    game 1 (the board's games are numbered on across rounds).
    """

    first: str = ""
    second: str = ""
    round: str = ""
    games: int = 4
    first_game: int = 1

    def moves_first(self, record: MatchGame) -> bool:
        """Whether ``first`` moves first in this game of the match: games 1, 3, 5..."""
        return (record.number - self.first_game) % 2 == 0


def match_of(matches: Sequence[Match], number: int) -> Match:
    """The match the board's game ``number`` belongs to (``matches`` oldest first)."""
    return next((m for m in reversed(matches) if m.first_game <= number), matches[0])


def name_players(matches: list[Match], named: Match, begun: bool, next_game: int) -> None:
    """A new pairing in a new round, after the match on the board has ``begun``, is the next
    match (from game ``next_game``); anything else corrects the match being played."""
    match = matches[-1]
    if begun and named.round != match.round and {named.first, named.second} != {match.first, match.second}:
        named.first_game = next_game
        matches.append(named)
    else:
        named.first_game = match.first_game
        matches[-1] = named
