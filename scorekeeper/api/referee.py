"""The referee in the API: who wins a trick, and why. Anonymous; it reads and records nothing,
so it takes no token and no rate limit (it answers from the request alone, at most six cards)."""

from __future__ import annotations

from flask import Response, jsonify
from flask_babel import get_translations

from ..i18n import gettext
from ..rules.judge import card_from, judge, reading_from, suit_from
from ..rules.table import clean_names
from ..schemas.referee import Judgement, RefereeBody
from .openapi import Answer, Operation
from .problems import ProblemError
from .requests import json_body, parse


def numbered_players(count: int) -> list[str]:
    """Names for the positions of a trick when the players are not named: Player 1, …"""
    return [gettext("Player %(number)d", number=position + 1) for position in range(count)]


@Operation(
    rule="/referee",
    method="POST",
    operation_id="referee",
    summary="Judge a trick",
    description="Who wins the trick of these cards (in play order, the lead first), who "
    "leads the next one, and why, in one sentence in the request's language. A trick in "
    "progress is judged as it stands. Nothing is recorded.",
    body=RefereeBody,
    answers={200: Answer("The judgement.", Judgement)},
    problems=(400, 413, 415, 422),
)
def referee() -> Response:
    """Judge the trick of the body's cards."""
    body = parse(RefereeBody, json_body())
    trump = None if body.trump is None else suit_from(body.trump, field="trump")
    reading = reading_from(body.reading, field="reading")
    cards = [
        card_from(card.kind, card.suit, card.number, card.played_as, field=f"cards[{index}]")
        for index, card in enumerate(body.cards)
    ]
    names = numbered_players(len(cards))
    if body.players is not None:
        names = list(clean_names(body.players))
        if len(names) < len(cards):
            raise ProblemError(
                422,
                "rule-violation",
                gettext("Name a player for each card played, the leader first."),
                "players",
            )
    judgement = judge(trump, reading, cards)
    answer = Judgement(
        winner=judgement.winner,
        leads_next=judgement.leads_next,
        reason=judgement.reason,
        message=judgement.render(names, get_translations().ugettext),
    )
    return jsonify(answer.model_dump(mode="json"))
