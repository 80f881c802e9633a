"""Flask extensions, created unbound and set up with ``init_app`` in the factory."""

from datetime import datetime

from flask_babel import Babel
from flask_caching import Cache
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import DateTime, MetaData
from sqlalchemy.orm import DeclarativeBase, registry

# Named constraints, so migrations can alter and drop them on every backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with the naming convention; every time is stored with its zone."""

    registry = registry(
        metadata=MetaData(naming_convention=NAMING_CONVENTION),
        type_annotation_map={datetime: DateTime(timezone=True)},
    )


# Objects stay loaded after commit, so a use case builds its answer without reloading.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate(render_as_batch=True, compare_type=True)
# Templates translate through i18n.init_app's callables, not Flask-Babel's (the filters
# Flask-Babel would add are not used).
babel = Babel(configure_jinja=False)
# The spectators' live fragment, rendered once per game, version and language (web/live.py):
# in each worker's memory, or shared by every worker and server in Redis (CACHE_REDIS_URL).
cache = Cache()
csrf = CSRFProtect()
compress = Compress()
# Rate limits per client address (behind a proxy: as ProxyFix reports it); no default limit,
# each limited view names its own (security.limited). Storage and switches come from the
# app's RATELIMIT_* settings.
limiter = Limiter(get_remote_address)
