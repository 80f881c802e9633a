"""Undo and redo: a game's last writes taken back, and put back, from its audit trail.

The audit trail keeps the stack (``services/stack.py``): a write is pushed on it, an undo
takes its top back, a redo puts it back; what each would take is read at the top. Undo and
redo are themselves writes: one transaction, a version bump and an audit row (the facts
before and after), so another phone's page is stale after them and the round's history
tells them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from itertools import zip_longest

from ..rules.game import RoundRecord
from ..rules.messages import OutOfTurnError
from ..rules.messages import gettext_noop as _
from ..schemas.document import Facts
from . import stack
from .loading import GameSnapshot
from .rounds import RoundEdit
from .sharing import KeeperProof, as_keeper

#: The writes that can be undone: a trump, bids (a bid), a trick tallied, a trick count
#: tapped in, tricks, a scoring, a correction, the Bomb's and the Cloud's facts.
UNDOABLE = frozenset(
    {"trump", "bids", "tally", "draft", "tricks", "score", "correction", "specials"}
)
DRAFT = "draft"


@dataclass(frozen=True)
class Step:
    """One change that can be taken back (or put back): its round and the facts around it
    (``drafts``: the counts tapped in, where the change wrote them)."""

    round: int
    kind: str
    old: RoundRecord
    new: RoundRecord

    @property
    def seat(self) -> int | None:
        """The one player whose bid or trick count tapped in the change wrote otherwise
        (``None``: no player's, or several players')."""
        if self.kind == DRAFT:
            return self.draft_seat
        pairs = zip_longest(self.old.bids or (), self.new.bids or ())
        seats = [seat for seat, (was, now) in enumerate(pairs) if was != now]
        return seats[0] if len(seats) == 1 else None

    @property
    def draft_seat(self) -> int | None:
        """The seat whose trick count tapped in the change wrote otherwise (``None``: it
        wrote no count tapped in)."""
        old, new = self.old.drafts, self.new.drafts
        if old is None or new is None:
            return None
        counts = enumerate(zip(old, new, strict=True))  # both one per seat (``_facts``)
        return next((seat for seat, (was, now) in counts if was != now), None)

    @property
    def scores(self) -> bool:
        """Whether the change scored the round (its tricks were not recorded before)."""
        return self.old.tricks is None and self.new.tricks is not None


@dataclass(frozen=True)
class Reversible:
    """What one tap can take back (``undo``) or put back (``redo``) now; ``None``: nothing."""

    undo: Step | None = None
    redo: Step | None = None


def _facts(stored: object, seats: int) -> RoundRecord | None:
    """An audit row's facts, checked: a row the code did not write is never undone;
    ``None`` if they are not facts this game could have (a count a seat, none below zero,
    seats of its own)."""
    record = Facts.read(stored)
    if record is None:
        return None
    counts = (record.bids, record.tricks, record.drafts)
    if any(values is not None and len(values) != seats for values in counts):
        return None
    named = [*record.tally, None if record.cloud is None else record.cloud.seat]
    values = [value for values in counts for value in values or () if value is not None]
    if any(seat is not None and seat >= seats for seat in named) or min(values, default=0) < 0:
        return None
    return record


def _step(entry: stack.Entry | None, seats: int) -> Step | None:
    """The change a row of the trail records, if it can be taken back: a kind that can,
    facts this game could have (a row the code did not write is never undone), and for a
    count tapped in, the player's count."""
    if entry is None or entry.kind not in UNDOABLE:
        return None
    old, new = _facts(entry.old, seats), _facts(entry.new, seats)
    if old is None or new is None:
        return None
    step = Step(entry.round, entry.kind, old, new)
    return None if step.kind == DRAFT and step.draft_seat is None else step


def _top(top: stack.Top, seats: int, *, redo: bool) -> Step | None:
    """The change one tap takes back, if it may: one to the current round or to the last one
    scored (as they were before the undos), or the game's very last write, also once undone
    and redone: it is on top when nothing could be redone (RULES.md, "Undo and redo"). A
    redo puts back whatever the undos took back, the last first, while no other write came
    since."""
    step = _step(top.undone if redo else top.done, seats)
    if step is None or redo:
        return step
    latest = top.undone is None
    return step if step.round >= top.current - 1 or latest else None


def reversible(game: GameSnapshot) -> Reversible:
    """What the round screen can offer to undo and to redo (at most two statements)."""
    top, seats = stack.top(game.id), game.table.seats
    return Reversible(undo=_top(top, seats, redo=False), redo=_top(top, seats, redo=True))


@dataclass(frozen=True)
class Reversed:
    """An undo or redo written: the game as it left it and the change it took or put back."""

    game: GameSnapshot
    step: Step


def undo(game_id: str, proof: KeeperProof, *, if_match: Collection[int] | None = None) -> Reversed:
    """Take back the game's last write not taken back yet, within the current round and
    the last one scored; 412 when ``if_match`` names a version another write has passed."""
    return _reverse(game_id, proof, if_match, redo=False)


def redo(game_id: str, proof: KeeperProof, *, if_match: Collection[int] | None = None) -> Reversed:
    """Put back the change the last undo took back, while nothing else was written since."""
    return _reverse(game_id, proof, if_match, redo=True)


def _reverse(
    game_id: str, proof: KeeperProof, if_match: Collection[int] | None, *, redo: bool
) -> Reversed:
    with as_keeper(game_id, proof, if_match) as game:
        top = stack.top(game.id)
        step = _top(top, game.table.seats, redo=redo)
        entry = top.undone if redo else top.done
        if step is None or entry is None:
            if redo:
                raise OutOfTurnError(_("There is nothing to redo."))
            raise OutOfTurnError(
                _("There is nothing more to undo here: correct earlier rounds on the sheet.")
                if top.done is not None
                else _("There is nothing to undo.")
            )
        edit = RoundEdit(game, step.round)
        now, then = (step.old, step.new) if redo else (step.new, step.old)
        if not _unchanged(edit, now):
            raise OutOfTurnError(
                _("Round %(round)d has changed since, so that change cannot be taken back."),
                round=step.round,
            )
        edit.round = _restored(edit, then, step, redo=redo)
        # The round's "corrected" mark as it was before the change, or after it.
        corrected = entry.corrected_before or (redo and step.kind == "correction")
        edit.corrected_at = (edit.corrected_at or edit.now) if corrected else None
        if step.draft_seat is not None:  # the history tells the count as it was and is
            edit.drafts = (edit.game.counts(step.round), edit.round.drafts or (None,) * edit.seats)
        edit.kind = stack.REDO if redo else stack.UNDO
        edit.place = stack.reversing(top, entry)
        edit.write()
    return Reversed(edit.result(), step)


def _unchanged(edit: RoundEdit, facts: RoundRecord) -> bool:
    """Whether the round still has the ``facts`` the change left (or found, for a redo), but
    the counts tapped in: undoing a scoring taps in the tricks it scored, which no count
    tapped in before it wrote (and a count undone is that player's alone)."""
    return replace(edit.round, drafts=None) == replace(facts, drafts=None)


def _restored(edit: RoundEdit, facts: RoundRecord, step: Step, *, redo: bool) -> RoundRecord:
    """The round with ``facts``. Undoing a scoring leaves its tricks tapped in, to change
    the one that was wrong; undoing a count tapped in gives back that player's count only;
    a round not being played keeps no tricks tapped in."""
    blank: tuple[int | None, ...] = (None,) * edit.seats
    drafts = edit.round.drafts or blank
    seat = step.draft_seat
    if seat is not None:  # a count tapped in: that player's count as it was, the others kept
        before = edit.game.counts(step.round)
        drafts = (*before[:seat], (facts.drafts or blank)[seat], *before[seat + 1 :])
    if step.scores:
        drafts = blank if redo else step.new.tricks or blank
    if facts.bids is None or None in facts.bids or facts.tricks is not None:
        drafts = blank  # tricks are tapped in only while the round is played
    return replace(facts, drafts=drafts if any(d is not None for d in drafts) else None)
