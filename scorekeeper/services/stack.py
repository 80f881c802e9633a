"""The undo stack, kept in the audit trail's rows: what undo would take back and redo put
back, read at the top in a constant number of indexed reads, however long the trail.

Each write (not an undo or redo) is pushed: its row names the change under it on the stack
(``below``). An ``undo`` row names the change it takes back (``reverts``), which leaves the
change under that one on top; a ``redo`` row names the change it puts back, which is on top
again. What redo would put back is the change the last undo took back, or, after a redo,
the change pushed on top of the one it put back (the latest row whose ``below`` it is). A
write clears what could be redone: nothing is pushed on top of it. An import's rows name no
change under them, so undo stops at them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import ChangeRow

UNDO = "undo"
REDO = "redo"

_COLUMNS = (
    ChangeRow.id,
    ChangeRow.round_number,
    ChangeRow.kind,
    ChangeRow.old,
    ChangeRow.new,
    ChangeRow.below,
    ChangeRow.reverts,
    ChangeRow.reached,
    ChangeRow.corrected_before,
)
_REVERTED = aliased(ChangeRow)
# The game's last row, with the change it takes back or puts back (an undo's or a redo's).
_LAST = (
    select(*_COLUMNS, *(getattr(_REVERTED, column.key) for column in _COLUMNS))
    .outerjoin(_REVERTED, _REVERTED.id == ChangeRow.reverts)
    .where(ChangeRow.game_id == bindparam("game_id"))
    .order_by(ChangeRow.id.desc())
    .limit(1)
)
_BY_ID = select(*_COLUMNS).where(ChangeRow.id == bindparam("id"))
# The change pushed on top of another (the latest: one pushed before it was cleared).
_ABOVE = (
    select(*_COLUMNS)
    .where(ChangeRow.game_id == bindparam("game_id"), ChangeRow.below == bindparam("id"))
    .order_by(ChangeRow.id.desc())
    .limit(1)
)


@dataclass(frozen=True)
class Entry:
    """A row of the audit trail as the stack reads it (facts as stored)."""

    id: int
    round: int
    kind: str
    old: Any
    new: Any
    below: int | None
    reverts: int | None
    #: The round being played as far as the changes on the stack up to this one reach.
    reached: int | None
    #: Whether the round was marked corrected before this write.
    corrected_before: bool


@dataclass(frozen=True)
class Top:
    """The stack after the game's last row: the change undo would take back (``done``)
    and the one redo would put back (``undone``); ``None``: none. ``current``: the round
    being played when the undos began (they do not move it back)."""

    done: Entry | None = None
    undone: Entry | None = None
    current: int = 1


def _entry(values: Any) -> Entry | None:
    return None if values is None or values[0] is None else Entry(*values)


def top(game_id: str) -> Top:
    """The stack's top, in at most two statements."""
    row = db.session.execute(_LAST, {"game_id": game_id}).first()
    if row is None:
        return Top()
    width = len(_COLUMNS)
    last, reverted = _entry(row[:width]), _entry(row[width:])
    assert last is not None
    current = last.reached or 1
    if last.kind not in (UNDO, REDO):
        return Top(done=last, current=current)
    if reverted is None:  # an imported undo or redo that took nothing back
        return Top(current=current)
    if last.kind == UNDO:
        below = reverted.below
        under = None if below is None else db.session.execute(_BY_ID, {"id": below}).first()
        return Top(done=_entry(under), undone=reverted, current=current)
    above = db.session.execute(_ABOVE, {"game_id": game_id, "id": reverted.id}).first()
    return Top(done=reverted, undone=_entry(above), current=current)


def pushed(game_id: str, number: int, scores: bool) -> dict[str, int | None]:
    """Where a new write to round ``number`` goes on the stack: on the top (``below``),
    reaching the round after it if it ``scores`` the round."""
    done = top(game_id).done
    reach = number + scores
    if done is None:
        return {"below": None, "reached": reach}
    return {"below": done.id, "reached": max(done.reached or 1, reach)}


def reversing(stack: Top, entry: Entry) -> dict[str, int | None]:
    """Where an undo or redo of ``entry`` goes: it names the change, the round being played
    stays."""
    return {"reverts": entry.id, "reached": stack.current}
