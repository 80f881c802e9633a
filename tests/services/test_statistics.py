"""The players' statistics over the games a phone keeps: the service's values, counted from
games seeded through the services (tests/factory.py); the page shows them
(tests/pages/test_history.py)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from flask import Flask

from scorekeeper.rules.scoring import score
from scorekeeper.rules.specials import CloudBid
from scorekeeper.services import history, rounds
from scorekeeper.services import statistics as statistics_service
from scorekeeper.services.sharing import Browser

from ..factory import finished, seed

PHONE = Browser("statistics-phone")


def statistics(app: Flask, browser: Browser = PHONE) -> statistics_service.Statistics:
    with app.app_context():
        return statistics_service.statistics(browser)


def listed(app: Flask, search: str) -> list[tuple[str, ...]]:
    """The players of the games the phone's list shows for ``search``."""
    with app.app_context():
        found = history.game_list(PHONE, search=search).games
    return [tuple(game.game.table.players) for game in found]


@pytest.mark.both_backends
def test_statistics_count_games_wins_scores_and_bids_by_name_in_any_case(app: Flask) -> None:
    # Game 1: Ann 20+40 = 60, Bob -10+20 = 10, Cy 30+20 = 50 → Ann wins.
    finished(app, PHONE, ["Ann", "Bob", "Cy"], [([0, 1, 1], [0, 0, 1]), ([2, 0, 0], [2, 0, 0])])
    # Game 2: ann 20, BOB 20, Cy -10 → a shared win for ann and BOB.
    finished(app, PHONE, ["ann", "BOB", "Cy"], [([0, 0, 0], [0, 0, 1])])
    stats = statistics(app)
    by_name = {player.name.lower(): player for player in stats.players}
    ann, bob, cy = by_name["ann"], by_name["bob"], by_name["cy"]
    assert (ann.games, ann.wins, ann.best, ann.average) == (2, 2, 60, 40.0)
    assert (ann.rounds, ann.accuracy, ann.longest_run, ann.history) == (3, 1.0, 3, [60, 20])
    assert (ann.zero_bids, ann.zero_made, ann.zero_success) == (2, 2, 1.0)
    assert (bob.games, bob.wins, bob.win_rate) == (2, 1, 0.5)
    assert (bob.exact, bob.over, bob.over_by, bob.under, bob.longest_run) == (2, 1, 1.0, 0, 2)
    assert (cy.wins, cy.rounds, cy.exact, cy.under, cy.under_by) == (0, 3, 2, 1, 1.0)
    assert (cy.zero_bids, cy.zero_made) == (2, 1)
    pair = next(p for p in stats.pairs if (p.first.lower(), p.second.lower()) == ("ann", "bob"))
    assert (pair.games, pair.first_ahead, pair.second_ahead, pair.ties) == (2, 1, 0, 1)
    # A game in progress counts from its first round scored, not as finished; one of another
    # phone not at all.
    seed(app, ["Ann", "Bob", "Cy"], [([0, 0, 0], [0, 0, 1])], browser=PHONE)
    seed(app, ["Dee", "Ann", "Bob"], [([0, 0, 0], [0, 0, 1])], browser=PHONE)
    seed(app, ["Ann", "Eve", "Bob"], [([0, 0, 0], [0, 0, 1])], browser=Browser("another phone"))
    stats = statistics(app)
    by_name = {player.name.lower(): player for player in stats.players}
    assert (by_name["ann"].games, by_name["ann"].finished, by_name["ann"].wins) == (4, 2, 2)
    assert (by_name["dee"].games, by_name["dee"].finished, by_name["dee"].win_rate) == (1, 0, None)
    assert "eve" not in by_name
    assert stats.games == 4


def test_no_phone_or_no_round_scored_has_no_statistics(app: Flask) -> None:
    assert statistics_service.statistics(None) == statistics_service.Statistics([], [])
    seed(app, browser=PHONE)
    stats = statistics(app)
    assert (stats.players, stats.pairs, stats.games) == ([], [], 1)


@pytest.mark.both_backends
def test_statistics_keep_the_rounding_to_the_page(app: Flask) -> None:
    # Ann makes her bid in 1 round of 8, her average score (20 − 7 × 10) / 8 = −6.25: the
    # page rounds them (tests/pages/test_history.py).
    finished(app, PHONE, ["Ann", "Bob", "Cy"], [([0, 0, 0], [0, 0, 1])])
    for _ in range(7):
        finished(app, PHONE, ["Ann", "Bob", "Cy"], [([1, 0, 0], [0, 0, 1])])
    ann = next(player for player in statistics(app).players if player.name == "Ann")
    assert (ann.average, ann.accuracy, ann.exact, ann.rounds) == (-6.25, 0.125, 1, 8)


@pytest.mark.both_backends
def test_statistics_list_names_with_umlauts_among_their_plain_letters(app: Flask) -> None:
    finished(app, PHONE, ["Uwe", "Özil", "Ännchen"], [([0, 1, 1], [0, 0, 1])])
    finished(app, PHONE, ["Otto", "Anton", "Zoe"], [([0, 1, 1], [0, 0, 1])])
    names = [player.name for player in statistics(app).players]
    assert names == ["Ännchen", "Anton", "Otto", "Özil", "Uwe", "Zoe"]


@pytest.mark.both_backends
def test_names_are_found_and_counted_together_in_any_case_of_any_alphabet(app: Flask) -> None:
    # German names: the search and the statistics fold Ä, Ö, Ü as they fold A to Z.
    finished(app, PHONE, ["Özil", "Jürgen", "Åsa"], [([0, 1, 1], [0, 0, 1])])
    finished(app, PHONE, ["ÖZIL", "JÜRGEN", "Bo"], [([0, 0, 1], [0, 0, 1])])
    seed(app, ["Dora", "Eve", "Finn"], browser=PHONE)
    for needle in ("Özil", "özil", "ÖZ", "jür", "ÅSA"):
        found = listed(app, needle)
        assert ("Dora", "Eve", "Finn") not in found, needle
        assert ("Özil", "Jürgen", "Åsa") in found, needle
        assert (("ÖZIL", "JÜRGEN", "Bo") in found) == (needle.lower() != "åsa"), needle
    games = {player.name.lower(): player.games for player in statistics(app).players}
    assert (games["özil"], games["jürgen"], games["åsa"]) == (2, 2, 1)


def test_turkish_and_greek_names_are_found_and_counted_alike_on_every_database(
    app: Flask,
) -> None:
    # Python lowers "İ" to "i" and a combining dot, and a final "Σ" to "ς"; PostgreSQL to
    # "i" and "σ". A phone's keyboard writes "ς" at a word's end.
    finished(app, PHONE, ["İlker", "ΟΔΟΣ", "Cem"], [([0, 1, 1], [0, 0, 1])])
    finished(app, PHONE, ["ILKER", "Οδος", "Bo"], [([0, 0, 1], [0, 0, 1])])
    seed(app, ["Dora", "Eve", "Finn"], browser=PHONE)
    for needle in ("ilker", "İlker", "İLKER", "οδος", "ΟΔΟΣ", "οδοσ"):
        found = listed(app, needle)
        assert ("Dora", "Eve", "Finn") not in found, needle
        assert ("İlker", "ΟΔΟΣ", "Cem") in found, needle
        assert ("ILKER", "Οδος", "Bo") in found, needle
    games = {player.name.upper(): player.games for player in statistics(app).players}
    assert games == {"İLKER": 2, "ΟΔΟΣ": 2, "CEM": 1, "BO": 1}


@pytest.mark.both_backends
@pytest.mark.parametrize("needle", ["_", "/", "\\", "%", "a_b", "c/d", "e\\f", "g%h"])
def test_a_search_finds_the_characters_sql_reads_as_wildcards_as_written(
    app: Flask, needle: str
) -> None:
    seed(app, ["a_b", "c/d", "e\\f"], browser=PHONE)
    seed(app, ["axb", "cd", "ef"], browser=PHONE)
    seed(app, ["g%h", "Ann", "Bob"], browser=PHONE)
    found = listed(app, needle)
    assert ("axb", "cd", "ef") not in found  # "_" stands for no other character
    assert (("a_b", "c/d", "e\\f") in found) == (needle != "%" and "%" not in needle)
    assert (("g%h", "Ann", "Bob") in found) == ("%" in needle)


@pytest.mark.both_backends
def test_the_statistics_count_the_bid_the_cloud_changed_to(app: Flask) -> None:
    # One round of one card: Ann bid 0, won the Cloud's trick and went up to 1: made, 30.
    game = seed(app, browser=PHONE, special_cards=["cloud"], rounds=1)
    with app.app_context():
        rounds.record_trump(game.id, game.token, 1, "green")
        rounds.record_bids(game.id, game.token, 1, [0, 0, 0])
        rounds.record_tricks(game.id, game.token, 1, [1, 0, 0], cloud=CloudBid(seat=0, bid=1))
    ann = next(player for player in statistics(app).players if player.name == "Ann")
    assert (ann.exact, ann.under, ann.zero_bids, ann.best, ann.wins) == (1, 0, 0, 30, 1)


@pytest.mark.parametrize(
    ("bid", "tricks"), [(0, 0), (1, 1), (3, 3), (7, 6), (7, 5), (5, 6), (0, 4)]
)
def test_the_statistics_score_a_round_by_the_rules(bid: int, tricks: int) -> None:
    seats = [
        statistics_service.Seat("Ann", "ann", [(1, bid, tricks)]),
        statistics_service.Seat("Bob", "bob", [(1, 0, 0)]),
    ]
    stats = statistics_service.statistics_of([statistics_service.KeptGame(1, seats)])
    ann = next(player for player in stats.players if player.name == "Ann")
    assert (ann.best, ann.average, ann.history) == (
        score(bid, tricks),
        score(bid, tricks),
        [score(bid, tricks)],
    )


def test_the_head_to_head_table_shows_the_pairs_with_the_most_games_together() -> None:
    def game(*names: str) -> statistics_service.KeptGame:
        seats = [statistics_service.Seat(name, name.lower(), [(1, 0, 0)]) for name in names]
        return statistics_service.KeptGame(1, seats)

    games = [game(f"P{n:02}", f"Q{n:02}", f"R{n:02}") for n in range(30)]
    stats = statistics_service.statistics_of(
        [*games, game("Zed", "Yve", "Xan"), game("Zed", "Yve", "Xan")]
    )
    assert len(stats.pairs) == statistics_service.PAIRS_SHOWN
    assert [(pair.first, pair.second, pair.games) for pair in stats.pairs[:3]] == [
        ("Xan", "Yve", 2),
        ("Xan", "Zed", 2),
        ("Yve", "Zed", 2),
    ]


def reference_statistics(
    games: list[tuple[list[str], int, list[tuple[list[int], list[int]]]]],
) -> dict[str, dict[str, Any]]:
    """The statistics counted in Python, by the rules' scores, from the facts of each game
    (names, rounds set up, the rounds played), oldest game first."""
    players: dict[str, dict[str, Any]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    for names, round_count, played in games:
        totals = [sum(score(bids[s], tricks[s]) for bids, tricks in played) for s in range(3)]
        finished = len(played) == round_count
        for seat, name in enumerate(names):
            p = players.setdefault(
                name.lower(),
                {
                    "games": 0,
                    "finished": 0,
                    "wins": 0,
                    "finals": [],
                    "rounds": 0,
                    "exact": 0,
                    "over": [],
                    "under": [],
                    "zero_bids": 0,
                    "zero_made": 0,
                    "run": 0,
                    "best_run": 0,
                },
            )
            p["games"] += 1
            for bids, tricks in played:
                bid, won = bids[seat], tricks[seat]
                p["rounds"] += 1
                p["exact"] += bid == won
                p["run"] = p["run"] + 1 if bid == won else 0
                p["best_run"] = max(p["best_run"], p["run"])
                if bid > won:
                    p["over"].append(bid - won)
                if bid < won:
                    p["under"].append(won - bid)
                p["zero_bids"] += bid == 0
                p["zero_made"] += bid == 0 and won == 0
            if finished:
                p["finished"] += 1
                p["wins"] += totals[seat] == max(totals)
                p["finals"].append(totals[seat])
        if finished:
            for a, b in itertools.combinations(range(3), 2):
                (first, first_total), (second, second_total) = sorted(
                    [(names[a].lower(), totals[a]), (names[b].lower(), totals[b])]
                )
                counts = pairs.setdefault((first, second), [0, 0, 0])
                counts[0] += 1
                counts[1] += first_total > second_total
                counts[2] += first_total < second_total
    result = {}
    for key, p in players.items():
        finals = p["finals"]
        result[key] = {
            "games": p["games"],
            "finished": p["finished"],
            "wins": p["wins"],
            "average": sum(finals) / len(finals) if finals else None,
            "best": max(finals) if finals else None,
            "rounds": p["rounds"],
            "exact": p["exact"],
            "over": len(p["over"]),
            "over_by": sum(p["over"]) / len(p["over"]) if p["over"] else None,
            "under": len(p["under"]),
            "under_by": sum(p["under"]) / len(p["under"]) if p["under"] else None,
            "zero_bids": p["zero_bids"],
            "zero_made": p["zero_made"],
            "longest_run": p["best_run"],
            "history": finals[-statistics_service.SPARK_POINTS :],
        }
    result["pairs"] = {pair: tuple(counts) for pair, counts in pairs.items()}
    return result


@pytest.mark.both_backends
@pytest.mark.parametrize("seed_number", [1, 2])
def test_the_statistics_equal_the_rules_counted_in_python(app: Flask, seed_number: int) -> None:
    rng = random.Random(seed_number)
    pool = ["Ann", "ann", "Bob", "Cy", "Dora", "Eve"]
    games = []
    for _ in range(7):
        names = rng.sample(pool, 3)
        while len({name.lower() for name in names}) < 3:
            names = rng.sample(pool, 3)
        round_count = rng.randint(1, 4)
        played = []
        for number in range(
            1, rng.choice([round_count, round_count, rng.randint(1, round_count)]) + 1
        ):
            tricks = [0, 0, 0]
            for _trick in range(number):
                tricks[rng.randrange(3)] += 1
            bids = [won if rng.random() < 0.6 else rng.randint(0, number) for won in tricks]
            played.append((bids, tricks))
        seed(app, names, played, browser=PHONE, rounds=round_count)
        games.append((names, round_count, played))
    expected = reference_statistics(games)
    stats = statistics(app)
    found: dict[str, Any] = {
        player.name.lower(): {name: getattr(player, name) for name in expected[player.name.lower()]}
        for player in stats.players
    }
    found["pairs"] = {
        (pair.first.lower(), pair.second.lower()): (pair.games, pair.first_ahead, pair.second_ahead)
        for pair in stats.pairs
    }
    assert found == expected
    assert [player.games for player in stats.players] == sorted(
        (player.games for player in stats.players), reverse=True
    )
