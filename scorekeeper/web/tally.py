"""What the pages show of a round's trick tally, asked of the rules: each player's tricks won
so far and what they still need, in words ("needs 1", "no more tricks", "made it", "1 over")."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import ngettext

from ..i18n import gettext
from ..rules.game import RoundState
from ..rules.tally import Need, Progress, nobody_allowed, progress, won_so_far
from ..services import loading


@dataclass(frozen=True)
class TallyRow:
    """One player's line of the tally."""

    seat: int
    name: str
    dealer: bool
    #: The bid as the table may see it (``None``: hidden or not made).
    bid: int | None
    #: The tricks won so far (:func:`~scorekeeper.rules.tally.won_so_far`: the counts tapped
    #: in by hand come first; ``None``: not known yet).
    won: int | None
    #: Where the player stands against the tally (``None`` while the bid is hidden, or once
    #: counts are tapped in by hand: the tally is no longer what is scored).
    need: Need | None
    words: str | None


@dataclass(frozen=True)
class Board:
    """A round's tally as a page shows it."""

    rows: list[TallyRow]
    #: Tricks tallied so far, and the round's tricks.
    tallied: int
    cards: int
    #: Whether a trick may be tallied as won by nobody (a Bomb's trick).
    nobody: bool
    #: Whether a count was tapped in by hand (the counts, not the tally, are the tricks won).
    by_hand: bool

    @property
    def complete(self) -> bool:
        """Whether every trick of the round is tallied."""
        return self.tallied >= self.cards

    @property
    def needs(self) -> bool:
        """Whether any player's need is told (not while hidden, nor once counted by hand)."""
        return any(row.need is not None for row in self.rows)

    @property
    def next_trick(self) -> int:
        """The number of the trick to tally next (1-based)."""
        return self.tallied + 1


def need_words(player: Progress) -> str | None:
    """What the player still needs, in words (``None`` without a bid to compare with)."""
    need = player.need
    if need is Need.NEEDS:
        return str(ngettext("needs %(num)d", "needs %(num)d", player.missing))
    if need is Need.ENOUGH:
        return gettext("no more tricks")
    if need is Need.MADE:
        return gettext("made it")
    if need is Need.OVER:
        return str(ngettext("%(num)d over", "%(num)d over", player.over))
    if need is Need.OUT_OF_REACH:
        return str(
            ngettext(
                "needs %(num)d: no longer possible",
                "needs %(num)d: no longer possible",
                player.missing,
            )
        )
    return None


def board(game: loading.GameSnapshot, number: int) -> Board | None:
    """Round ``number``'s tally while it is played, players in seat order (``None``: the
    round is not being played). Each player's tricks so far are the rules' one count of them
    (counts tapped in by hand over the tally); what they still need is told against the
    tally, until a count is tapped in by hand. Bids the reveal mode hides stay hidden, and so
    does what those players still need."""
    view = game.view.round(number)
    if view.state is not RoundState.PLAYING:
        return None
    shown = view.shown_scored_bids or (None,) * game.table.seats
    won = won_so_far(view.tricks_total, game.counts(number), view.tally)
    by_hand = number in game.drafts
    rows = [
        TallyRow(
            seat=player.seat,
            name=game.table.players[player.seat],
            dealer=player.seat == view.dealer,
            bid=player.bid,
            won=won[player.seat],
            need=None if by_hand else player.need,
            words=None if by_hand else need_words(player),
        )
        for player in progress(view.cards, shown, view.tally)
    ]
    return Board(
        rows=rows,
        tallied=len(view.tally),
        cards=view.cards,
        nobody=nobody_allowed(game.table, view.tally, view.trump),
        by_hand=by_hand,
    )
