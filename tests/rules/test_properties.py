"""Properties of the rules, checked with hypothesis: scores, totals, bid constraints,
rotation."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TypeVar

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.bids import forbidden_bid
from scorekeeper.rules.game import RoundRecord, RoundView, evaluate
from scorekeeper.rules.scoring import add_scores, score
from scorekeeper.rules.specials import CloudBid
from scorekeeper.rules.table import Table, full_game_rounds
from scorekeeper.rules.variants import BidRule

from .helpers import (
    Records,
    allowed_bids,
    dealer_turns,
    leads_outright,
    played_games,
    record,
    round_facts,
    seatings,
)

T = TypeVar("T")


@given(played_games())
def test_totals_equal_the_sum_of_round_scores(game_facts: tuple[Table, Records]) -> None:
    table, records = game_facts
    game = evaluate(table, records)
    scored = [view.scores for view in game.rounds if view.scores is not None]
    assert len(scored) == len(records)
    assert game.round(1).totals_before == [0] * table.seats
    for view in game.rounds[: len(records)]:
        facts = records[view.number]
        bids, tricks = facts.bids, facts.tricks
        assert bids is not None
        assert tricks is not None
        assert sum(tricks) == view.cards - facts.bomb  # the Bomb's trick goes to nobody
        expected = []
        for seat, (made, won) in enumerate(zip(bids, tricks, strict=True)):
            assert made is not None
            bid = made
            if facts.cloud is not None and facts.cloud.seat == seat:
                assert abs(facts.cloud.bid - made) == 1  # the Cloud changes a bid by one
                bid = facts.cloud.bid  # ... and the round is scored on the changed bid
            expected.append(20 + 10 * won if bid == won else -10 * abs(bid - won))
        assert view.scores == expected
    assert game.totals == [sum(row[seat] for row in scored) for seat in range(table.seats)]
    totals = [0] * table.seats
    for view in game.rounds:
        assert view.totals_before == totals
        if view.scores is not None:
            totals = [total + points for total, points in zip(totals, view.scores, strict=True)]
            assert view.totals_after == totals


@given(played_games(), st.data())
def test_a_change_to_one_round_changes_no_round_before_it_nor_after_it_unless_its_outcome(
    game_facts: tuple[Table, Records], data: st.DataObject
) -> None:
    """Each round follows from the rounds before it and its own facts alone: whatever the
    change to one round (scored, taken back to a bare trump or half bid, or removed) and
    wherever it falls (before, in or after the played rounds, which may then wait), the
    rounds before it read as they did, and so do the rounds after it when it passes on
    what it did before (not scored, or scored to the same totals)."""
    table, before = game_facts
    since = data.draw(st.integers(1, table.rules.rounds), label="since")
    seats = table.seats
    partial = record([since % 2, *[None] * (seats - 1)])
    changed = data.draw(st.sampled_from(["scored", "trump", "partial", "removed"]), label="change")
    after = dict(before)
    if changed == "scored":
        after[since] = data.draw(round_facts(table, since), label="round")
    elif changed == "trump":
        after[since] = record()
    elif changed == "partial":
        after[since] = partial
    else:
        after.pop(since, None)
    old, new = evaluate(table, before), evaluate(table, after)
    assert new.rounds[: since - 1] == old.rounds[: since - 1]
    if passed_on(old.round(since)) == passed_on(new.round(since)):
        assert new.rounds[since:] == old.rounds[since:]
        assert new.totals == old.totals


def passed_on(view: RoundView) -> list[int] | None:
    """What a round passes on to the next: the totals after it, once it is scored."""
    return None if view.scores is None else add_scores(view.totals_before, view.scores)


@given(dealer_turns())
def test_dealer_always_has_an_allowed_bid_and_at_most_one_forbidden(
    turn: tuple[Table, int, list[int | None], list[int]],
) -> None:
    table, round_number, bids, totals = turn
    seat = table.dealer(round_number)
    cards = table.cards(round_number)
    allowed = allowed_bids(table, round_number, seat, bids, totals)
    refused = [bid for bid in range(cards + 1) if bid not in allowed]
    assert allowed
    assert len(refused) <= 1
    # RULES.md, restated: the dealer may not make the total equal the cards ...
    rule = table.rules.bid_rule
    restricted = rule is BidRule.PLUS_MINUS_ONE or (
        rule is BidRule.CANADIAN and leads_outright(totals, seat)
    )
    zero_ok = rule is BidRule.CANADIAN or table.rules.last_bidder_may_bid_zero
    others = sum(bid for bid in bids if bid is not None)
    expected = [
        bid
        for bid in range(cards + 1)
        if restricted and others + bid == cards and not (bid == 0 and zero_ok)
    ]
    assert refused == expected
    assert forbidden_bid(table, round_number, bids, totals) == (expected[0] if expected else None)


@given(dealer_turns(), st.data())
def test_forbidden_bid_is_never_outside_0_to_cards(
    turn: tuple[Table, int, list[int | None], list[int]], data: st.DataObject
) -> None:
    table, round_number, bids, totals = turn
    missing = data.draw(st.sets(st.integers(0, table.seats - 1)))
    partial = [None if seat in missing else bid for seat, bid in enumerate(bids)]
    forbidden = forbidden_bid(table, round_number, partial, totals)
    assert forbidden is None or 0 <= forbidden <= table.cards(round_number)
    if any(bid is None for seat, bid in enumerate(partial) if seat != table.dealer(round_number)):
        assert forbidden is None  # the dealer's limit waits for every other bid


@given(seatings())
def test_every_seat_deals_equally_often_give_or_take_one(table: Table) -> None:
    # 60 / n rounds is never a multiple of n (20/3, 15/4, 12/5, 10/6), so not even a full
    # game gives every seat the same number of deals; passing the deal to the left keeps
    # them within one, and any n rounds in a row give each seat exactly one deal, whatever
    # the plan and the deck (odd hands only: the dealer passes every round as usual).
    players, rounds = table.seats, table.rules.rounds
    dealers = [view.dealer for view in evaluate(table, {}).rounds]
    deals = [dealers.count(seat) for seat in range(players)]
    assert max(deals) - min(deals) <= 1
    assert sum(deals) == rounds
    for start in range(rounds - players + 1):
        assert sorted(dealers[start : start + players]) == list(range(players))
    for earlier, later in pairwise(dealers):
        assert later == (earlier + 1) % players
    if rounds == full_game_rounds(players, table.rules.round_plan):
        assert min(deals) == rounds // players


@given(played_games(max_rounds=6), st.data())
def test_scores_and_standings_do_not_depend_on_seat_order(
    game_facts: tuple[Table, Records],
    data: st.DataObject,
) -> None:
    table, records = game_facts
    seats = table.seats
    moved = data.draw(st.permutations(range(seats)))  # new seat i holds old seat moved[i]

    def permute(values: Sequence[T] | None) -> list[T] | None:
        return None if values is None else [values[moved[i]] for i in range(seats)]

    def permuted(facts: RoundRecord) -> RoundRecord:
        cloud = facts.cloud and CloudBid(moved.index(facts.cloud.seat), facts.cloud.bid)
        bids, tricks = permute(facts.bids), permute(facts.tricks)
        assert bids is not None
        assert tricks is not None
        return RoundRecord(facts.trump, tuple(bids), tuple(tricks), facts.bomb, cloud)

    permuted_records = {n: permuted(r) for n, r in records.items()}
    permuted_table = Table(
        tuple(table.players[moved[i]] for i in range(seats)), table.first_dealer, table.rules
    )
    before = evaluate(table, records)
    after = evaluate(permuted_table, permuted_records)
    assert after.totals == [before.totals[moved[i]] for i in range(seats)]
    for old, new in zip(before.rounds, after.rounds, strict=True):
        assert new.scores == permute(old.scores)
    assert {(s.name, s.total, s.rank) for s in after.standings} == {
        (s.name, s.total, s.rank) for s in before.standings
    }
    assert {permuted_table.players[s] for s in after.winners} == {
        table.players[s] for s in before.winners
    }


@given(st.integers(0, 20), st.integers(0, 20))
def test_score_is_positive_exactly_when_bid_is_met(bid: int, tricks: int) -> None:
    assert (score(bid, tricks) > 0) is (bid == tricks)
