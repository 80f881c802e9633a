"""The players' statistics over the games a browser keeps: every score is the rules' own
(:func:`rules.scoring.score` of the bid :func:`rules.specials.scored_bid` says a round is
scored on), totalled here in Python, so no rule is written a second time."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

from sqlalchemy import and_, select

from ..database import folded
from ..extensions import db
from ..models import EntryRow, GameRow, KeeperRow, PlayerRow, RoundRow
from ..rules.scoring import score
from ..rules.specials import CloudBid, scored_bid
from ..rules.table import fold_case
from .sharing import Browser

SPARK_POINTS = 30
PAIRS_SHOWN = 50


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the finished games they played together."""

    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int

    @property
    def ties(self) -> int:
        """The games neither ended ahead of the other."""
        return self.games - self.first_ahead - self.second_ahead


@dataclass(frozen=True)
class Statistics:
    """Every player this browser has kept score of, most games first, and each pair."""

    players: list[PlayerStats]
    pairs: list[HeadToHead]
    #: The games kept, a round scored or not.
    games: int = 0


class Seat(NamedTuple):
    """One player of a kept game: the name as typed and in any case (``key``), and each round
    scored as its number, the bid it was scored on and the tricks won, in order."""

    name: str
    key: str
    played: Sequence[tuple[int, int, int]]


class KeptGame(NamedTuple):
    """The facts of one kept game that the statistics count."""

    round_count: int
    seats: list[Seat]


@dataclass
class PlayerStats:
    """One player (by name, any case) over the games this browser keeps, counted game by
    game in the order they were started."""

    names: list[str] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    #: The player's final totals of the finished games.
    finals: list[int] = field(default_factory=list)
    rounds: int = 0
    exact: int = 0
    over: int = 0
    over_sum: int = 0
    under: int = 0
    under_sum: int = 0
    zero_bids: int = 0
    zero_made: int = 0
    run: int = 0
    longest_run: int = 0

    @property
    def name(self) -> str:
        """One of the ways the name was typed, always the same one."""
        return max(self.names)

    @property
    def finished(self) -> int:
        return len(self.finals)

    @property
    def average(self) -> float | None:
        return sum(self.finals) / len(self.finals) if self.finals else None

    @property
    def best(self) -> int | None:
        return max(self.finals) if self.finals else None

    @property
    def over_by(self) -> float | None:
        return self.over_sum / self.over if self.over else None

    @property
    def under_by(self) -> float | None:
        return self.under_sum / self.under if self.under else None

    @property
    def history(self) -> list[int]:
        """The last :data:`SPARK_POINTS` final totals (the sparkline)."""
        return self.finals[-SPARK_POINTS:]

    @property
    def win_rate(self) -> float | None:
        """Wins (shared wins count) per finished game."""
        return self.wins / self.finished if self.finished else None

    @property
    def accuracy(self) -> float | None:
        """Exact bids per round played."""
        return self.exact / self.rounds if self.rounds else None

    @property
    def zero_success(self) -> float | None:
        """Bids of 0 made per bid of 0."""
        return self.zero_made / self.zero_bids if self.zero_bids else None

    def count(self, seat: Seat) -> int:
        """Add the player's rounds of one game (a run of exact bids goes on into it); the
        player's total in that game, by the rules' scores."""
        self.names.append(seat.name)
        self.games += 1
        self.rounds += len(seat.played)
        total = 0
        for _number, bid, tricks in seat.played:
            total += score(bid, tricks)
            if bid == tricks:
                self.exact += 1
                self.run += 1
                self.longest_run = max(self.longest_run, self.run)
            else:
                self.run = 0
                if bid > tricks:
                    self.over += 1
                    self.over_sum += bid - tricks
                else:
                    self.under += 1
                    self.under_sum += tricks - bid
            if bid == 0:
                self.zero_bids += 1
                self.zero_made += tricks == 0
        return total


def alphabetical(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list, as a German or English reader looks for it:
    in any case, a letter with an accent or umlaut beside the plain one (Ännchen among the
    A's, not after Uwe), then the name as it is, so the order is always the same."""
    decomposed = unicodedata.normalize("NFKD", fold_case(name))
    return "".join(char for char in decomposed if not unicodedata.combining(char)), name


def statistics_of(games: Sequence[KeptGame]) -> Statistics:
    """The statistics of ``games``, oldest first: each game's totals are the rules' scores
    of its rounds; a game counts for a player from the first round scored, as finished once
    every round is; a run of exact bids goes on from one game into the next."""
    players: dict[str, PlayerStats] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    for game in games:
        seats = [seat for seat in game.seats if seat.played]
        totals = [players.setdefault(seat.key, PlayerStats()).count(seat) for seat in seats]
        finished = [
            (seat.key, total)
            for seat, total in zip(seats, totals, strict=True)
            if len(seat.played) == game.round_count
        ]
        for key, total in finished:
            player = players[key]
            player.finals.append(total)
            player.wins += total == max(totals)
        # Each pair once, the first by code point (the same order on every database).
        for (first, first_total), (second, second_total) in combinations(sorted(finished), 2):
            if first == second:
                continue
            counts = pairs.setdefault((first, second), [0, 0, 0])
            counts[0] += 1
            counts[1] += first_total > second_total
            counts[2] += first_total < second_total
    # The pairs who shared the most finished games (the same ones on every database: by
    # code point), then listed as a reader looks for them.
    shown = sorted(pairs.items(), key=lambda item: (-item[1][0], item[0]))[:PAIRS_SHOWN]
    shown.sort(key=lambda item: (-item[1][0], *alphabetical(item[0][0]), *alphabetical(item[0][1])))
    return Statistics(
        players=[
            players[key]
            for key in sorted(players, key=lambda key: (-players[key].games, *alphabetical(key)))
        ],
        pairs=[
            HeadToHead(players[first].name, players[second].name, *counts)
            for (first, second), counts in shown
        ],
        games=len(games),
    )


def kept_games(browser: Browser) -> list[KeptGame]:
    """The facts of the games ``browser`` keeps, oldest first, in two statements, asked of the
    tables' columns (SQLAlchemy Core): the rows are many, and plain rows cost far less."""
    tables = [model.__table__ for model in (GameRow, PlayerRow, EntryRow, KeeperRow, RoundRow)]
    games, players, entries, keepers, rounds = tables
    mine = (keepers.c.browser_hash == browser.hash, games.c.deleted_at.is_(None))
    seated = db.session.execute(
        select(
            games.c.id,
            games.c.round_count,
            players.c.seat,
            players.c.name,
            folded(players.c.name),
        )
        .join_from(games, keepers, keepers.c.game_id == games.c.id)
        .join(players, players.c.game_id == games.c.id)
        .where(*mine)
        .order_by(games.c.created_at, games.c.id)
    ).all()
    scored = db.session.execute(
        select(
            entries.c.game_id,
            entries.c.seat,
            entries.c.round_number,
            entries.c.bid,
            entries.c.tricks,
            rounds.c.cloud_seat,
            rounds.c.cloud_bid,
        )
        .join_from(entries, keepers, keepers.c.game_id == entries.c.game_id)
        .join(games, games.c.id == entries.c.game_id)
        .join(
            rounds,
            and_(rounds.c.game_id == entries.c.game_id, rounds.c.number == entries.c.round_number),
        )
        .where(*mine, entries.c.bid.is_not(None), entries.c.tricks.is_not(None))
    ).all()
    played: dict[tuple[str, int], list[tuple[int, int, int]]] = {}
    for game_id, seat, number, bid, tricks, cloud_seat, cloud_bid in scored:
        # The bid the round is scored on, the rules' (the Cloud's change where it made one).
        cloud = None if cloud_seat is None else CloudBid(cloud_seat, cloud_bid)
        played.setdefault((game_id, seat), []).append(
            (number, scored_bid(seat, bid, cloud), tricks)
        )
    kept: dict[str, KeptGame] = {}
    for game_id, round_count, seat, name, key in seated:
        seats = kept.setdefault(game_id, KeptGame(round_count, [])).seats
        seats.append(Seat(name, key, sorted(played.get((game_id, seat), ()))))
    return list(kept.values())


def statistics(browser: Browser | None) -> Statistics:
    """The players' statistics over the games this browser keeps, in two statements."""
    if browser is None:
        return Statistics(players=[], pairs=[])
    return statistics_of(kept_games(browser))
