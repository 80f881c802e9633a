"""Messages of the rules and the service, translated for the request's language."""

from __future__ import annotations

from typing import Any

import flask_babel
from flask_babel import get_translations

from . import rules, service


def gettext(message: str, **params: Any) -> str:
    """``message`` translated, its ``%(name)s`` placeholders filled from ``params``."""
    return str(flask_babel.gettext(message, **params))


def rule_message(error: rules.RuleError) -> str:
    """The rule's sentence in the request's language."""
    translations = get_translations()
    return error.render(translations.ugettext, translations.ungettext)


def service_message(error: service.ServiceError) -> str:
    """The service's sentence in the request's language (a rule's refusal quoted in it, too)."""
    params = {
        key: rule_message(value) if isinstance(value, rules.RuleError) else value
        for key, value in error.params.items()
    }
    return gettext(error.message, **params)
