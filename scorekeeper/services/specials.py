"""The special cards' facts of a round being played, tapped in on the round screen before it
is scored: the Bomb was played, the Cloud changed a bid. Each write is one transaction,
audited as ``specials`` (and so undone like any other)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from ..rules.messages import SetupError
from ..rules.messages import gettext_noop as _
from ..rules.referee import verify_being_played, verify_specials_turn
from ..rules.specials import CloudBid
from ..rules.tally import bomb_tallied
from .loading import GameSnapshot
from .rounds import RoundEdit, round_edit
from .sharing import KeeperProof


def _write(edit: RoundEdit, *, bomb: bool, cloud: CloudBid | None) -> None:
    view = edit.view
    verify_being_played(view, edit.number)
    # A count tapped in as 0 is known already: that seat cannot have won the Cloud's trick.
    verify_specials_turn(
        view, edit.number, bomb=bomb, cloud=cloud, tricks=edit.game.counts(edit.number)
    )
    if not bomb and bomb_tallied(edit.round.tally):
        raise SetupError(
            _(
                "A trick of this round is tallied to nobody, which only the Bomb's is: "
                "undo that trick first."
            ),
            field="bomb",
        )
    edit.round = replace(edit.round, bomb=bomb, cloud=cloud)
    edit.audit("specials")


def record_bomb(
    game_id: str,
    proof: KeeperProof,
    number: int,
    played: bool,
    *,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record whether the Bomb was played in round ``number`` (while it is played): its
    tricks then add up to the cards minus one."""
    with round_edit(game_id, proof, number, if_match) as edit:
        _write(edit, bomb=played, cloud=edit.round.cloud)
    return edit.result()


def record_cloud(
    game_id: str,
    proof: KeeperProof,
    number: int,
    seat: int | None,
    *,
    up: bool = True,
    if_match: Collection[int] | None = None,
) -> GameSnapshot:
    """Record that ``seat`` won the Cloud's trick in round ``number`` and bids one more
    (``up``) or one less than the bid made; ``seat`` ``None`` takes the change back."""
    with round_edit(game_id, proof, number, if_match) as edit:
        cloud = None
        if seat is not None:
            bids = edit.view.round(number).bids or ()
            made = bids[seat] if 0 <= seat < len(bids) else None
            cloud = CloudBid(seat, (made or 0) + (1 if up else -1))
        _write(edit, bomb=edit.round.bomb, cloud=cloud)
    return edit.result()
