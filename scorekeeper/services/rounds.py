"""A round's facts: the trump, the bids, the tricks (tapped in or saved), corrections.

Each use case is one transaction: the game is loaded under its lock, the credential, the
round and the expected version are checked, the rules decide on the game as stored, and
the round's changed rows, the audit row and the version bump are written through the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import insert, update

from .. import rules
from ..extensions import db
from ..models import Entry, Round, RoundChange, utcnow
from ..rules import gettext_noop as _
from .loading import GameSnapshot, RoundFacts, StoredGame, bump_version, facts_json, snapshot_of
from .sharing import Credential, editing

# The ORM's bulk statements: rows inserted, or updated by their primary key, as given.
_INSERT_ROUND = insert(Round)
_UPDATE_ROUND = update(Round).execution_options(synchronize_session=False)
_INSERT_ENTRIES = insert(Entry)
_UPDATE_ENTRIES = update(Entry).execution_options(synchronize_session=False)
_INSERT_AUDIT = insert(RoundChange)


class RoundEdit:
    """One round being changed by a use case, on the game locked for it."""

    def __init__(self, game: StoredGame, number: int) -> None:
        self.game = game
        self.number = number
        self.snapshot = snapshot_of(game)
        self.view = self.snapshot.view
        self.before = game.rounds.get(number)
        #: The round as it will be written (``RoundFacts`` values are replaced, never changed).
        self.round = self.before or RoundFacts(number)
        self.now = utcnow()
        self.kind: str | None = None

    @property
    def seats(self) -> int:
        return self.game.table.seats

    @property
    def scored(self) -> bool:
        """Whether the round was scored before this write."""
        return self.view.round(self.number).state is rules.RoundState.SCORED

    def mark_if_correction(self) -> None:
        if self.scored:
            self.round = replace(self.round, corrected_at=self.now)

    def audit(self, kind: str) -> None:
        """Keep this write in the audit trail; a write to a round already scored is a
        correction, whichever use case made it."""
        self.kind = "correction" if self.scored else kind

    def write(self) -> None:
        """Write what changed in the round (inserted where it was not stored yet), the audit
        row and the version bump, in the session's transaction, through the ORM."""
        session = db.session
        game, before, after = self.game, self.before, self.round
        keys = {"game_id": game.id, "number": self.number}
        row = {
            **keys,
            "trump_turned": after.trump_turned,
            "trump_suit": after.trump_suit,
            "corrected_at": after.corrected_at,
        }
        if before is None:
            session.execute(_INSERT_ROUND, [row])
        elif (before.trump_turned, before.trump_suit, before.corrected_at) != (
            after.trump_turned,
            after.trump_suit,
            after.corrected_at,
        ):
            session.execute(_UPDATE_ROUND, [row])
        old = before.entries if before is not None else ()
        entries = [
            {
                "game_id": game.id,
                "round_number": self.number,
                "seat": seat,
                "bid": entry.bid,
                "tricks": entry.tricks,
                "draft_tricks": entry.draft,
            }
            for seat, entry in enumerate(after.entries)
            if not old or old[seat] != entry
        ]
        if entries:
            session.execute(_UPDATE_ENTRIES if old else _INSERT_ENTRIES, entries)
        if self.kind is not None:
            audit = {
                "game_id": game.id,
                "round_number": self.number,
                "kind": self.kind,
                "changed_at": self.now,
                "old": facts_json((before or RoundFacts(self.number)).record()),
                "new": facts_json(after.record()),
            }
            session.execute(_INSERT_AUDIT, [audit])
        bump_version(game, self.now)

    def result(self) -> GameSnapshot:
        """The game as this write left it."""
        game = self.game
        return snapshot_of(
            replace(
                game,
                version=game.version + 1,
                updated_at=self.now,
                rounds={**game.rounds, self.number: self.round},
            )
        )


def _edit_round(
    game_id: str,
    token: Credential,
    number: int,
    if_match: Collection[int] | None,
    change: Callable[[RoundEdit], None],
) -> GameSnapshot:
    """Make ``change`` to round ``number`` of the game, locked, and write it; the game as
    it left it."""
    with editing(game_id, token, if_match, number) as game:
        edit = RoundEdit(game, number)
        change(edit)
        edit.write()
    return edit.result()


def record_trump(
    game_id: str,
    token: Credential,
    number: int,
    turned: str,
    chosen: str | None = None,
    *,
    if_match: Collection[int] | None = None,
    scored_too: bool = True,
) -> GameSnapshot:
    """Record (or change) the card turned in round ``number`` and the trump it gives.

    ``scored_too=False`` refuses a round already scored (the pages correct those as a whole).
    """

    def change(edit: RoundEdit) -> None:
        if not scored_too:
            rules.verify_not_scored(edit.view, number)
        rules.verify_trump_turn(edit.view, number)
        edit.round = edit.round.with_trump(rules.trump_from(turned, chosen))
        edit.mark_if_correction()
        edit.audit("trump")

    return _edit_round(game_id, token, number, if_match, change)


def record_bids(
    game_id: str,
    token: Credential,
    number: int,
    bids: Sequence[int | None],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or replace) the bids of round ``number``; ``None`` is a bid not made yet."""

    def change(edit: RoundEdit) -> None:
        rules.verify_bids_turn(edit.view, number, bids)
        edit.round = edit.round.with_entries(edit.seats, bid=bids)
        edit.mark_if_correction()
        edit.audit("bids")

    return _edit_round(game_id, token, number, if_match, change)


@dataclass(frozen=True)
class BidRecorded:
    """One bid recorded: the game as it left it, and why the dealer's bid was taken back when
    the new bid left it forbidden (``None``: it was not)."""

    game: GameSnapshot
    dealer_bids_again: rules.BidError | None = None


def record_bid(
    game_id: str,
    token: Credential,
    number: int,
    seat: int,
    bid: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> BidRecorded:
    """Record (``None``: take back) one player's bid in round ``number``, keeping the others,
    while the round is not yet scored (a scored round is corrected as a whole). A dealer's
    bid that the new bid leaves forbidden is taken back, for the dealer to bid again."""
    again: rules.BidError | None = None

    def change(edit: RoundEdit) -> None:
        nonlocal again
        view = edit.view
        rules.verify_not_scored(view, number)
        _verify_seat(view.table, seat)
        changed = rules.change_bid(view, number, seat, bid)
        edit.round = edit.round.with_entries(edit.seats, bid=changed.bids)
        again = changed.dealer_bids_again
        edit.mark_if_correction()
        edit.audit("bids")

    game = _edit_round(game_id, token, number, if_match, change)
    return BidRecorded(game, again)


def _verify_seat(table: rules.Table, seat: int) -> None:
    if not 0 <= seat < table.seats:
        raise rules.SetupError(
            _("There is no seat %(seat)d at this table."), field="seat", seat=seat
        )


def record_tricks(
    game_id: str,
    token: Credential,
    number: int,
    tricks: Sequence[int],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or correct) the tricks won in round ``number``, which scores it."""

    def change(edit: RoundEdit) -> None:
        rules.verify_tricks_turn(edit.view, number, tricks)
        _write_tricks(edit, tricks)
        edit.mark_if_correction()
        edit.audit("tricks")

    return _edit_round(game_id, token, number, if_match, change)


def _write_tricks(edit: RoundEdit, tricks: Sequence[int]) -> None:
    """The round's tricks, which score it; the drafts tapped in give way to them."""
    edit.round = edit.round.with_entries(edit.seats, tricks=tricks, draft=(None,) * edit.seats)


def correct_round(
    game_id: str,
    token: Credential,
    number: int,
    *,
    turned: str | None,
    chosen: str | None,
    bids: Sequence[int],
    tricks: Sequence[int],
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Replace a scored round's trump, bids and tricks at once, under the same checks.

    ``turned`` is ``None`` for the round that deals every card (it has no trump to give).
    Later rounds stay as recorded; every total is derived anew.
    """

    def change(edit: RoundEdit) -> None:
        view = edit.view
        if not edit.scored:
            raise rules.OutOfTurnError(
                _("Round %(round)d is not scored yet, so there is nothing to correct."),
                round=number,
            )
        rules.verify_bids_turn(view, number, bids)
        rules.verify_tricks_turn(view, number, tricks)
        if turned is not None:
            rules.verify_trump_turn(view, number)
            edit.round = edit.round.with_trump(rules.trump_from(turned, chosen))
        edit.round = edit.round.with_entries(edit.seats, bid=bids, tricks=tricks)
        edit.mark_if_correction()
        edit.audit("correction")

    return _edit_round(game_id, token, number, if_match, change)


def save_trick_draft(
    game_id: str,
    token: Credential,
    number: int,
    seat: int,
    count: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Keep the tricks one player won, tapped in while round ``number`` is played (``None``
    clears them). Drafts are never scored: :func:`record_tricks` saves the round."""

    def change(edit: RoundEdit) -> None:
        view = edit.view
        rules.verify_trick_draft_turn(view, number)
        _verify_seat(view.table, seat)
        if count is not None:
            rules.verify_trick_count(view.table, number, seat, count)
        edit.round = edit.round.with_entry(edit.seats, seat, draft=count)

    return _edit_round(game_id, token, number, if_match, change)


def score_round(
    game_id: str,
    token: Credential,
    number: int,
    *,
    all_made: bool = False,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Score round ``number`` from the tricks tapped in (the one missing count filled in from
    the sum), or, with ``all_made``, with every player having made their bid."""

    def change(edit: RoundEdit) -> None:
        view = edit.view
        rules.verify_trick_draft_turn(view, number)
        round_view = view.round(number)
        if all_made:
            tricks = rules.all_made_tricks(number, round_view.bids or ())
        else:
            tricks = rules.complete_draft(view.table, number, edit.snapshot.draft(number))
        rules.verify_tricks_turn(view, number, tricks)
        _write_tricks(edit, tricks)
        edit.audit("score")

    return _edit_round(game_id, token, number, if_match, change)
