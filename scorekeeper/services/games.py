"""Games as a whole: start one, read one, its version, delete one, a browser's names."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from ..errors import GameExists
from ..extensions import db
from ..models import GameRow, KeeperRow, PlayerRow, utcnow
from ..rules.table import Table, clean_names, full_game_rounds
from ..rules.variants import (
    BidReveal,
    BidRule,
    GameRules,
    RoundPlan,
    parse_bid_reveal,
    parse_bid_rule,
    parse_round_plan,
    parse_specials,
)
from .ids import EDIT_TOKEN_BYTES, GAME_ID_BYTES
from .loading import GameSnapshot, live_game, load_game
from .sharing import Browser, KeeperProof, as_keeper, hash_token
from .transaction import write_transaction


@dataclass(frozen=True)
class NewGame:
    """A created game and its edit token, which is shown only this once."""

    game: GameSnapshot
    edit_token: str


def get_game(game_id: str) -> GameSnapshot:
    """The game with this id."""
    return load_game(game_id)


def game_version(game_id: str) -> int:
    """The game's version, in one statement: what a page polling for changes compares."""
    return int(live_game(game_id, GameRow.version).version)


def create_game(
    names: Sequence[str],
    *,
    first_dealer: int | None = None,
    bid_rule: str = BidRule.STANDARD,
    last_bidder_may_bid_zero: bool = False,
    bid_reveal: str = BidReveal.OPEN,
    clairvoyance: bool = False,
    rounds: int | None = None,
    special_cards: Collection[str] = (),
    round_plan: str = RoundPlan.EVERY_HAND,
    browser: Browser | None = None,
    game_id: str | None = None,
) -> NewGame:
    """Start a game (a missing first dealer drawn at random); ``browser`` may edit it.

    ``game_id``: the id the caller chose (a form sent twice asks for the same one); a game
    already started with it raises :class:`GameExists`, however close the two requests."""
    players = clean_names(names)
    if first_dealer is None:
        first_dealer = secrets.randbelow(len(players))
    plan = parse_round_plan(round_plan)
    table = Table(
        players=players,
        first_dealer=first_dealer,
        rules=GameRules(
            rounds=rounds if rounds is not None else full_game_rounds(len(players), plan),
            bid_rule=parse_bid_rule(bid_rule),
            last_bidder_may_bid_zero=last_bidder_may_bid_zero,
            bid_reveal=parse_bid_reveal(bid_reveal),
            clairvoyance=clairvoyance,
            special_cards=parse_specials(special_cards),
            round_plan=plan,
        ),
    )
    token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
    now = utcnow()
    game = new_game_row(table, token, now, now)
    if game_id is not None:
        game.id = game_id
    try:
        with write_transaction():
            if game_id is not None and db.session.get(GameRow, game_id) is not None:
                raise GameExists()
            db.session.add(game)
            if browser is not None:
                db.session.add(
                    KeeperRow(browser_hash=browser.hash, game_id=game.id, created_at=now)
                )
    except IntegrityError:
        # Only a chosen id can be taken (a fresh one has 144 random bits): by a request that
        # inserted it while this one was between its check and its insert.
        if game_id is None:
            raise
        raise GameExists() from None
    created = GameSnapshot(game.id, 1, game.edit_token_hash, now, now, table)
    return NewGame(game=created, edit_token=token)


def new_game_row(table: Table, token: str, created_at: datetime, updated_at: datetime) -> GameRow:
    """A new game's row (a fresh id, version 1) with its players, its token kept as a hash."""
    return GameRow(
        id=secrets.token_urlsafe(GAME_ID_BYTES),
        edit_token_hash=hash_token(token),
        version=1,
        first_dealer=table.first_dealer,
        bid_rule=table.rules.bid_rule.value,
        last_bidder_may_bid_zero=table.rules.last_bidder_may_bid_zero,
        bid_reveal=table.rules.bid_reveal.value,
        clairvoyance=table.rules.clairvoyance,
        round_count=table.rules.rounds,
        round_plan=table.rules.round_plan.value,
        special_cards=",".join(table.rules.specials),
        created_at=created_at,
        updated_at=updated_at,
        players=[PlayerRow(seat=seat, name=name) for seat, name in enumerate(table.players)],
    )


def delete_game(
    game_id: str, proof: KeeperProof, *, if_match: Collection[int] | None = None
) -> None:
    """Delete a game: it reads as unknown from now on (its facts are kept, marked deleted)."""
    with as_keeper(game_id, proof, if_match) as game:
        now = utcnow()
        db.session.execute(
            update(GameRow)
            .where(GameRow.id == game.id)
            .values(version=game.version + 1, updated_at=now, deleted_at=now)
            .execution_options(synchronize_session=False)
        )


def known_names(browser: Browser | None, limit: int = 60) -> list[str]:
    """Player names from the games this browser keeps, most recent games first, each once."""
    if browser is None:
        return []
    statement = (
        select(PlayerRow.name, GameRow.updated_at)
        .join(GameRow, GameRow.id == PlayerRow.game_id)
        .join(KeeperRow, KeeperRow.game_id == GameRow.id)
        .where(KeeperRow.browser_hash == browser.hash, GameRow.deleted_at.is_(None))
        .order_by(GameRow.updated_at.desc(), PlayerRow.seat)
        .limit(limit * 6)
    )
    names: dict[str, str] = {}
    for name, _updated in db.session.execute(statement):
        names.setdefault(name.casefold(), name)
    return list(names.values())[:limit]
