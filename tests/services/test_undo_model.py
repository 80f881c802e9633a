"""Undo and redo against a stack model (issue 33, item 3): random runs of writes, undos and
redos through the services, each checked against RULES.md's "Undo and redo" played on two
plain stacks.

The model keeps the writes done and the writes undone, each with the game's facts before
and after it. A write accepted pushes onto the done stack and empties the undone one; a
write refused changes nothing. Undo takes the top of the done stack back while it is a
write to the round being played or to the last one scored (as they were when the undos
began), or the game's very last write (also once undone and redone); redo puts back the top
of the undone stack. After each step the game's facts, the labels offered to undo and to
redo, and whether a tap was refused (and in which words) must be the model's.

The tricks tapped in follow the round screen (services/undo.py, ``_restored``): undoing a
scoring leaves its tricks tapped in, a count tapped in is taken back (and put back) alone,
and a round not being played keeps none."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.game import RoundRecord
from scorekeeper.rules.messages import RuleError
from scorekeeper.services import games, rounds, specials, undo
from scorekeeper.services.loading import GameSnapshot

from ..factory import Seeded, seed

ROUNDS = 3
SEATS = 3
STEPS = 16

#: The facts of one round the game reads: its record (tricks tapped in as ``None`` when
#: none is) and whether it is marked corrected.
Facts = tuple[RoundRecord, bool]
#: The game's facts, round by round.
State = tuple[Facts, ...]


def read(game: Seeded) -> tuple[State, GameSnapshot]:
    """The game's facts, as the services load them, and the game."""
    snapshot = games.get_game(game.id)
    facts = []
    for number in range(1, ROUNDS + 1):
        record = snapshot.rounds.get(number) or RoundRecord()
        drafts = (
            record.drafts if record.drafts and any(d is not None for d in record.drafts) else None
        )
        facts.append((replace(record, drafts=drafts), number in snapshot.corrected))
    return tuple(facts), snapshot


@dataclass(frozen=True)
class Write:
    """A write the model remembers: its round and kind, the seat of a count tapped in, and
    the game's facts before and after it."""

    round: int
    kind: str
    #: The seat of a count tapped in (``None``: the write was not one).
    draft_seat: int | None
    before: State
    after: State

    @property
    def seat(self) -> int | None:
        """The one player whose count tapped in, or else whose bid, the write changed."""
        if self.kind == "draft":
            return self.draft_seat
        old, new = (facts[self.round - 1][0].bids or () for facts in (self.before, self.after))
        changed = [s for s in range(SEATS) if _at(old, s) != _at(new, s)]
        return changed[0] if len(changed) == 1 else None

    @property
    def scores(self) -> bool:
        """Whether the write scored its round."""
        return self.before[self.round - 1][0].tricks is None and (
            self.after[self.round - 1][0].tricks is not None
        )


def _at(bids: tuple[int | None, ...], seat: int) -> int | None:
    return bids[seat] if seat < len(bids) else None


@dataclass
class Model:
    """RULES.md's undo and redo on two stacks (tops last)."""

    state: State
    done: list[Write] = field(default_factory=list)
    undone: list[Write] = field(default_factory=list)
    #: How deep the done stack was right after the last write (its top is that write then).
    latest: int = 0
    #: The round being played at the last write (the undos do not move it).
    playing: int = 1

    def wrote(self, write: Write, playing: int) -> None:
        self.done.append(write)
        self.undone.clear()
        self.latest = len(self.done)
        self.playing = playing
        self.state = write.after

    def undoable(self) -> Write | None:
        if not self.done:
            return None
        top = self.done[-1]
        in_reach = top.round >= self.playing - 1  # the round being played, the last scored
        return top if in_reach or len(self.done) == self.latest else None

    def redoable(self) -> Write | None:
        return self.undone[-1] if self.undone else None

    def reverse(self, *, redo: bool) -> None:
        write = self.undone.pop() if redo else self.done.pop()
        (self.done if redo else self.undone).append(write)
        index = write.round - 1
        target, corrected = (write.after if redo else write.before)[index]
        current = self.state[index][0]
        blank = (None,) * SEATS
        drafts = current.drafts or blank
        seat = write.draft_seat
        if seat is not None:  # a count tapped in: that player's alone
            drafts = (*drafts[:seat], (target.drafts or blank)[seat], *drafts[seat + 1 :])
        if write.scores:  # a scoring undone leaves its tricks tapped in
            drafts = blank if redo else (write.after[index][0].tricks or blank)
        if target.bids is None or None in target.bids or target.tricks is not None:
            drafts = blank  # counts are tapped in only while the round is played
        facts = replace(target, drafts=drafts if any(d is not None for d in drafts) else None)
        state = list(self.state)
        state[index] = (facts, corrected)
        self.state = tuple(state)


# -- The writes --------------------------------------------------------------------------

TURNED = st.sampled_from([("blue", None), ("red", None), ("jester", None), ("wizard", "green")])


def _split(total: int) -> st.SearchStrategy[list[int]]:
    """Tricks for the seats that add up to ``total``."""
    return st.lists(st.integers(0, total), min_size=SEATS - 1, max_size=SEATS - 1).map(
        lambda first: [*first, total - sum(first)]
    )


def _bids(number: int) -> st.SearchStrategy[int]:
    return st.integers(0, number)


KINDS = ["trump", "bid", "bids", "draft", "score", "tricks", "correction", "bomb", "cloud"]


def _next_kinds(facts: RoundRecord) -> list[str]:
    """The writes that take a round on: its trump, its bids, its tricks (or the Cloud's and
    the Bomb's facts), a correction once scored."""
    if facts.tricks is not None:
        return ["correction"]
    if facts.trump is None:
        return ["trump"]
    if facts.bids is None or None in facts.bids:
        return ["bids", "bid"]
    return ["score", "tricks", "draft", "cloud", "bomb"]


def draw_write(data: st.DataObject, model: Model) -> tuple[str, int, Any]:
    """A write to draw: mostly one that takes the round being played on, now and then any
    write to any round."""
    playing = min(model.playing, ROUNDS)
    if data.draw(st.booleans(), label="onwards"):
        number = playing
        kind = data.draw(st.sampled_from(_next_kinds(model.state[number - 1][0])), label="kind")
    else:
        kind = data.draw(st.sampled_from(KINDS), label="kind")
        number = data.draw(st.integers(1, ROUNDS), label="round")
    seat = st.integers(0, SEATS - 1)
    argument: Any
    if kind == "trump":
        argument = data.draw(TURNED)
    elif kind == "bid":
        argument = (data.draw(seat), data.draw(st.none() | _bids(number)))
    elif kind == "bids":
        argument = data.draw(st.lists(_bids(number), min_size=SEATS, max_size=SEATS))
    elif kind == "draft":
        argument = (data.draw(seat), data.draw(st.none() | st.integers(0, number)))
    elif kind == "score":
        argument = data.draw(st.booleans(), label="all made")
    elif kind == "tricks":
        argument = data.draw(_split(number))
    elif kind == "correction":
        bids = st.lists(_bids(number), min_size=SEATS, max_size=SEATS)
        argument = (data.draw(TURNED), data.draw(bids), data.draw(_split(number)))
    elif kind == "bomb":
        argument = data.draw(st.booleans())
    else:
        argument = (data.draw(st.none() | seat), data.draw(st.booleans()))
    return kind, number, argument


def perform(game: Seeded, kind: str, number: int, argument: Any) -> None:
    """The write through its use case (a refusal raises)."""
    at = (game.id, game.token, number)
    if kind == "trump":
        rounds.record_trump(*at, *argument)
    elif kind == "bid":
        rounds.record_bid(*at, *argument)
    elif kind == "bids":
        rounds.record_bids(*at, argument)
    elif kind == "draft":
        rounds.save_trick_draft(*at, *argument)
    elif kind == "score":
        rounds.score_round(*at, all_made=argument)
    elif kind == "tricks":
        rounds.record_tricks(*at, argument)
    elif kind == "correction":
        (turned, chosen), bids, tricks = argument
        rounds.correct_round(*at, turned=turned, chosen=chosen, bids=bids, tricks=tricks)
    elif kind == "bomb":
        specials.record_bomb(*at, argument)
    else:
        specials.record_cloud(*at, argument[0], up=argument[1])


#: The kind of audit row each write leaves (on a round already scored: a correction).
AUDITED = {
    "bid": "bids",
    "bids": "bids",
    "trump": "trump",
    "draft": "draft",
    "score": "score",
    "tricks": "tricks",
    "correction": "correction",
    "bomb": "specials",
    "cloud": "specials",
}


def _label(write: Write | undo.Step | None) -> tuple[int, str, int | None] | None:
    return None if write is None else (write.round, write.kind, write.seat)


def _refusal(action: Any, *arguments: Any) -> str | None:
    """The refusal's words, or ``None``: the write was accepted."""
    try:
        action(*arguments)
    except RuleError as refused:
        return str(refused)
    return None


@dataclass
class Run:
    """A game and its model, stepped together and compared after each step."""

    game: Seeded
    model: Model
    version: int

    def write(self, kind: str, number: int, argument: Any) -> None:
        """A write through the services: refused, nothing changed; accepted, pushed."""
        model = self.model
        before = model.state
        was_scored = before[number - 1][0].tricks is not None
        draft_before = before[number - 1][0].drafts or (None,) * SEATS
        refused = _refusal(perform, self.game, kind, number, argument)
        state, snapshot = read(self.game)
        version = snapshot.version
        event(f"{kind} {'refused' if refused else 'ok'}")
        if refused is not None:
            assert (state, version) == (before, self.version), refused
            return
        assert version == self.version + 1
        self.version = version
        if kind == "draft" and draft_before[argument[0]] == argument[1]:
            assert state == before  # the same count tapped again: nothing to undo
            return
        current = snapshot.view.current_round
        audited = "correction" if was_scored else AUDITED[kind]
        seat = argument[0] if kind == "draft" else None
        model.wrote(
            Write(number, audited, seat, before, state),
            ROUNDS + 1 if current is None else current,
        )
        self.check(state, snapshot)

    def reverse(self, *, redo: bool) -> None:
        """An undo or a redo: refused exactly when the model has nothing to take (or put)
        back, and then in the words RULES.md gives."""
        model = self.model
        expected = model.redoable() if redo else model.undoable()
        refused = _refusal(undo.redo if redo else undo.undo, self.game.id, self.game.token)
        state, snapshot = read(self.game)
        version = snapshot.version
        name = "redo" if redo else "undo"
        event(f"{name} {'refused: ' + refused[:30] if refused else 'ok'}")
        if expected is None:
            assert refused is not None, f"{name} of nothing was not refused"
            assert (state, version) == (model.state, self.version)
            if redo:
                assert refused == "There is nothing to redo."
            elif model.done:
                assert refused.startswith("There is nothing more to undo here: correct earlier")
            else:
                assert refused == "There is nothing to undo."
            return
        assert refused is None, f"{name} of {_label(expected)} refused: {refused}"
        assert version == self.version + 1
        self.version = version
        model.reverse(redo=redo)
        self.check(state, snapshot)

    def check(self, state: State, snapshot: GameSnapshot) -> None:
        """The game's facts and the undo and redo it offers are the model's."""
        assert state == self.model.state
        offered = undo.reversible(snapshot)
        assert _label(offered.undo) == _label(self.model.undoable())
        assert _label(offered.redo) == _label(self.model.redoable())


#: Rounds played before the random run: a trump, the bids, the tricks (each a write).
PLAYED = [([0, 1, 0], [0, 1, 0]), ([1, 0, 1], [2, 0, 0])]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_undo_and_redo_follow_the_stack_model(app: Flask, data: st.DataObject) -> None:
    game = seed(app, rounds=ROUNDS, special_cards=["bomb", "cloud"])
    with app.app_context():
        state, snapshot = read(game)
        run = Run(game, Model(state), snapshot.version)
        for number, (bids, tricks) in enumerate(PLAYED[: data.draw(st.integers(0, 2))], 1):
            run.write("trump", number, ("red", None))
            run.write("bids", number, bids)
            run.write("tricks", number, tricks)
        for _step in range(STEPS):
            action = data.draw(st.sampled_from(["write"] * 4 + ["undo"] * 2 + ["redo"]))
            if action == "write":
                run.write(*draw_write(data, run.model))
            else:
                run.reverse(redo=action == "redo")
        event(f"playing {run.model.playing}")
