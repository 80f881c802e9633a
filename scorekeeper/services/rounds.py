"""A round's facts: the trump, the bids, the tricks (tapped in or saved), corrections.

Each use case is one transaction, as ``docs/write-path.md`` tells.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from sqlalchemy import delete, insert, update

from ..extensions import db
from ..models import ChangeRow, EntryRow, RoundRow, utcnow
from ..rules.bids import verify_bid_range
from ..rules.cards import trump_from
from ..rules.game import RoundRecord, RoundState
from ..rules.messages import BidError, OutOfTurnError, SetupError
from ..rules.messages import gettext_noop as _
from ..rules.referee import (
    change_bid,
    verify_being_played,
    verify_bids_turn,
    verify_not_scored,
    verify_specials_turn,
    verify_tricks_turn,
    verify_trump_turn,
)
from ..rules.specials import (
    CloudBid,
    cloud_won_nothing,
    scored_bids,
    verify_cloud_took_a_trick,
    verify_one_bomb,
)
from ..rules.table import Table
from ..rules.tally import Winner, bomb_tallied, verify_trick_winner
from ..rules.tricks import (
    all_made_tricks,
    complete_draft,
    not_all_made,
    tricks_if_all_made,
    verify_trick_count,
    verify_trick_counts,
)
from ..schemas.document import Facts
from . import stack
from .loading import GameSnapshot, round_rows
from .sharing import KeeperProof, as_keeper
from .transaction import bump_version

# The ORM's bulk statements: rows inserted, or updated by their primary key, as given.
_INSERT_ROUND = insert(RoundRow)
_UPDATE_ROUND = update(RoundRow).execution_options(synchronize_session=False)
_INSERT_ENTRIES = insert(EntryRow)
_UPDATE_ENTRIES = update(EntryRow).execution_options(synchronize_session=False)
_INSERT_AUDIT = insert(ChangeRow)


class RoundEdit:
    """One round being changed by a use case, on the game locked for it."""

    def __init__(self, game: GameSnapshot, number: int) -> None:
        self.game = game
        self.number = number
        self.seats = game.table.seats
        self.view = game.view
        self.before = game.rounds.get(number)
        #: The round as it will be written (records are replaced, never changed).
        self.round = self.before or RoundRecord()
        self.corrected_at = game.corrected_at.get(number)
        self.now = utcnow()
        self.kind: str | None = None
        #: Where an undo or redo goes on the undo stack (a write is pushed on its top).
        self.place: dict[str, int | None] | None = None
        #: The trick counts tapped in before and after (as :meth:`GameSnapshot.counts` gives
        #: them), for the audit row to keep too: set by a count tapped in, its undo and redo.
        self.drafts: tuple[tuple[int | None, ...], tuple[int | None, ...]] | None = None
        #: Whether the round was scored before this write.
        self.scored = self.view.round(number).state is RoundState.SCORED

    def audit(self, kind: str) -> None:
        """Keep this write in the audit trail; a write to a round already scored is a
        correction, whichever use case made it, and marks the round corrected."""
        self.kind = kind
        if self.scored:
            self.kind = "correction"
            self.corrected_at = self.now

    def write(self) -> None:
        """Write what changed in the round, the audit row and the version bump, through the
        ORM (rows inserted where they were not stored yet, updated by primary key, or
        deleted: entries, when the round has no bid any more)."""
        session = db.session
        game, number = self.game, self.number
        row, entries = round_rows(game.id, game.table, number, self.round, self.corrected_at)
        old_entries: list[dict[str, Any]] = []
        if self.before is None:
            session.execute(_INSERT_ROUND, [row])
        else:
            corrected = game.corrected_at.get(number)
            old_row, old_entries = round_rows(game.id, game.table, number, self.before, corrected)
            if old_row != row:
                session.execute(_UPDATE_ROUND, [row])
        if old_entries and not entries:
            session.execute(
                delete(EntryRow).where(EntryRow.game_id == game.id, EntryRow.round_number == number)
            )
        elif entries:
            changed = [entry for entry in entries if entry not in old_entries]
            if changed:
                session.execute(_UPDATE_ENTRIES if old_entries else _INSERT_ENTRIES, changed)
        if self.kind is not None:
            before = self.before or RoundRecord()
            sides = zip((before, self.round), self.drafts or (None, None), strict=True)
            old, new = (Facts.stored(replace(r, drafts=d)) for r, d in sides)
            scores = before.tricks is None and self.round.tricks is not None
            place = self.place or stack.pushed(game.id, number, scores)
            audit: dict[str, object] = {"game_id": game.id, "round_number": number, **place}
            audit |= {"kind": self.kind, "changed_at": self.now, "old": old, "new": new}
            audit["corrected_before"] = number in game.corrected_at
            session.execute(_INSERT_AUDIT, [audit])
        bump_version(game, self.now)

    def result(self) -> GameSnapshot:
        """The game as this write left it."""
        rounds = {**self.game.rounds, self.number: self.round}
        corrected = {**self.game.corrected_at, self.number: self.corrected_at}
        return replace(
            self.game,
            version=self.game.version + 1,
            updated_at=self.now,
            rounds=rounds,
            corrected_at={number: at for number, at in corrected.items() if at is not None},
        )


@contextmanager
def round_edit(
    game_id: str,
    proof: KeeperProof,
    number: int,
    if_match: Collection[int] | None,
    values: Callable[[Table], None] | None = None,
) -> Iterator[RoundEdit]:
    """Round ``number`` of the game, locked, for the block to change; written when it ends
    (``values``: as :func:`as_keeper` takes them)."""
    with as_keeper(game_id, proof, if_match, number, values) as game:
        edit = RoundEdit(game, number)
        yield edit
        edit.write()


def record_trump(
    game_id: str,
    proof: KeeperProof,
    number: int,
    turned: str,
    chosen: str | None = None,
    *,
    if_match: Collection[int] | None = None,
    scored_too: bool = True,
) -> GameSnapshot:
    """Record (or change) the card turned in round ``number`` and the trump it gives;
    ``scored_too=False`` refuses a round already scored (the pages correct those as a whole)."""
    with round_edit(game_id, proof, number, if_match) as edit:
        if not scored_too:
            verify_not_scored(edit.view, number)
        verify_trump_turn(edit.view, number)
        specials = edit.game.table.rules.special_cards
        trump = trump_from(turned, chosen, specials)
        played = edit.round.bomb or bomb_tallied(edit.round.tally)
        verify_one_bomb(trump, played, field="turned")
        edit.round = replace(edit.round, trump=trump)
        edit.audit("trump")
    return edit.result()


def record_bids(
    game_id: str,
    proof: KeeperProof,
    number: int,
    bids: Sequence[int | None],
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or replace) the bids of round ``number``; ``None`` is a bid not made yet."""
    in_range = partial(verify_bid_range, round_number=number, bids=bids)
    with round_edit(game_id, proof, number, if_match, in_range) as edit:
        verify_bids_turn(edit.view, number, bids)
        edit.round = _cloud_kept(replace(edit.round, bids=tuple(bids)))
        edit.audit("bids")
    return edit.result()


@dataclass(frozen=True)
class BidRecorded:
    """One bid recorded: the game as it left it, and why the dealer's bid was taken back when
    the new bid left it forbidden (``None``: it was not)."""

    game: GameSnapshot
    dealer_bids_again: BidError | None = None


def record_bid(
    game_id: str,
    proof: KeeperProof,
    number: int,
    seat: int,
    bid: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> BidRecorded:
    """Record (``None``: take back) one player's bid in round ``number``, keeping the others,
    while the round is not yet scored (a scored round is corrected as a whole). A dealer's
    bid that the new bid leaves forbidden is taken back, for the dealer to bid again."""
    with round_edit(game_id, proof, number, if_match) as edit:
        view = edit.view
        verify_not_scored(view, number)
        _verify_seat(view.table, seat)
        changed = change_bid(view, number, seat, bid)
        edit.round = _cloud_kept(replace(edit.round, bids=tuple(changed.bids)))
        edit.audit("bids")
    return BidRecorded(edit.result(), changed.dealer_bids_again)


def _cloud_kept(record: RoundRecord) -> RoundRecord:
    """The round without the Cloud's change once the bid it changed is no longer the bid."""
    cloud = record.cloud
    if cloud is None or record.bids is None:
        return record
    bid = record.bids[cloud.seat]
    return record if bid is not None and abs(bid - cloud.bid) == 1 else replace(record, cloud=None)


def _verify_seat(table: Table, seat: int) -> None:
    if not 0 <= seat < table.seats:
        raise SetupError(_("There is no seat %(seat)d at this table."), field="seat", seat=seat)


def record_tricks(
    game_id: str,
    proof: KeeperProof,
    number: int,
    tricks: Sequence[int],
    *,
    bomb: bool = False,
    cloud: CloudBid | None = None,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record (or correct) the tricks won in round ``number``, which scores it, with whether
    the Bomb was played and the Cloud's change of a bid (``None``: none)."""
    in_range = partial(verify_trick_counts, round_number=number, tricks=tricks)
    with round_edit(game_id, proof, number, if_match, in_range) as edit:
        verify_specials_turn(edit.view, number, bomb=bomb, cloud=None)
        verify_tricks_turn(edit.view, number, tricks, bomb=bomb)
        verify_specials_turn(edit.view, number, bomb=bomb, cloud=cloud, tricks=tricks)
        edit.round = replace(edit.round, bomb=bomb, cloud=cloud)
        _write_tricks(edit, tricks)
        edit.audit("tricks")
    return edit.result()


def _write_tricks(edit: RoundEdit, tricks: Sequence[int]) -> None:
    """The round's tricks, which score it; the drafts tapped in give way to them."""
    edit.round = replace(edit.round, tricks=tuple(tricks), drafts=None)


def correct_round(
    game_id: str,
    proof: KeeperProof,
    number: int,
    *,
    turned: str | None,
    chosen: str | None,
    bids: Sequence[int],
    tricks: Sequence[int],
    specials: tuple[bool, CloudBid | None] | None = None,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Replace a scored round's trump, bids and tricks at once, under the same checks;
    ``turned`` is ``None`` for the round that deals every card (it has no trump to give);
    ``specials``: the Bomb flag and the Cloud's change (``None``: as recorded)."""
    with round_edit(game_id, proof, number, if_match) as edit:
        view = edit.view
        if not edit.scored:
            raise OutOfTurnError(
                _("Round %(round)d is not scored yet, so there is nothing to correct."),
                round=number,
            )
        bomb, cloud = specials or (edit.round.bomb, edit.round.cloud)
        trump = edit.round.trump
        if turned is not None:
            verify_trump_turn(view, number)
            trump = trump_from(turned, chosen, view.table.rules.special_cards)
        verify_bids_turn(view, number, bids)
        verify_specials_turn(view, number, bomb=bomb, cloud=cloud, bids=bids, trump=trump)
        verify_tricks_turn(view, number, tricks, bomb=bomb)
        verify_cloud_took_a_trick(view.table, cloud, tricks)
        edit.round = replace(
            edit.round, trump=trump, bids=tuple(bids), tricks=tuple(tricks), bomb=bomb, cloud=cloud
        )
        edit.audit("correction")
    return edit.result()


def save_trick_draft(
    game_id: str,
    proof: KeeperProof,
    number: int,
    seat: int,
    count: int | None,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Keep the tricks one player won, tapped in while round ``number`` is played (``None``
    clears them), audited as ``draft`` (so undone like any write) when the count changed.
    Drafts are never scored: :func:`score_round` scores the round."""
    with round_edit(game_id, proof, number, if_match) as edit:
        view = edit.view
        verify_being_played(view, number)
        _verify_seat(view.table, seat)
        if count is not None:
            verify_trick_count(view.table, number, seat, count)
        before = edit.game.counts(number)
        drafts = list(before)
        drafts[seat] = count
        edit.round = replace(edit.round, drafts=tuple(drafts))
        if before[seat] != count:
            edit.drafts = (before, tuple(drafts))
            edit.audit("draft")
    return edit.result()


def record_trick_winner(
    game_id: str,
    proof: KeeperProof,
    number: int,
    winner: Winner,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Tally the next trick of round ``number`` as won by ``winner`` (a seat, or ``None``:
    nobody), while the round is played; undo takes the tap back."""
    with round_edit(game_id, proof, number, if_match) as edit:
        view = edit.view
        verify_being_played(view, number)
        verify_trick_winner(view.table, number, edit.round.tally, winner, edit.round.trump)
        # The Bomb's trick goes to nobody: the round's tricks then add up to the cards - 1.
        bomb = edit.round.bomb or winner is None
        edit.round = replace(edit.round, tally=(*edit.round.tally, winner), bomb=bomb)
        edit.audit("tally")
    return edit.result()


def score_round(
    game_id: str,
    proof: KeeperProof,
    number: int,
    *,
    all_made: bool = False,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Score round ``number`` from the tricks tapped in (the one missing count filled in from
    the sum), or, with ``all_made``, with every player not tapped in having made their bid."""
    with round_edit(game_id, proof, number, if_match) as edit:
        view = edit.view
        verify_being_played(view, number)
        bomb = edit.round.bomb
        if all_made:
            bids = _scored_bids(edit.game, number)
            hidden = not view.round(number).bids_visible
            tricks = tapped_or_made(edit.game, number) or all_made_tricks(
                view.table, number, bids, bomb=bomb, hidden=hidden
            )
            if hidden and cloud_won_nothing(edit.round.cloud, tricks):
                raise not_all_made(view.table, number, bomb=bomb)  # nothing of whose bid
        else:
            tricks = complete_draft(view.table, number, edit.game.counts(number), bomb=bomb)
        verify_tricks_turn(view, number, tricks)
        verify_cloud_took_a_trick(view.table, edit.round.cloud, tricks)
        _write_tricks(edit, tricks)
        edit.audit("score")
    return edit.result()


def tapped_or_made(game: GameSnapshot, number: int) -> tuple[int, ...] | None:
    """The tricks if every player whose tricks are not tapped in made their bid (as the Cloud
    left it), when they add up to the round's tricks (``None``: they do not, or a bid is
    missing)."""
    total = game.view.round(number).tricks_total
    return tricks_if_all_made(total, _scored_bids(game, number), game.counts(number))


def _scored_bids(game: GameSnapshot, number: int) -> tuple[int | None, ...]:
    view = game.view.round(number)
    return scored_bids(view.bids, view.cloud) or ()
