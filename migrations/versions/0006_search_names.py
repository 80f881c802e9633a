"""search names: each player's name case-folded, what the games list searches; a round's
history read in the order of an index

Revision ID: 0006_search_names
Revises: 0005_statistics
Create Date: 2026-11-26

Reviewed: players.search_name holds the name through Python's str.casefold (with the Turkish
"İ" as "i", NFC), so that "strasse" finds "Straße" on SQLite and PostgreSQL alike, which
neither database's lower() does. The app writes it with every name (a column default);
this migration fills it for the names already stored, a batch at a time. The audit trail's
index on (game_id, round_number) gains (changed_at, id): a page of a round's history, the
latest first, is read in the index's order instead of sorting a long trail.

"""
import unicodedata

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006_search_names'
down_revision = '0005_statistics'
branch_labels = None
depends_on = None

BATCH = 1000


def _key(name):
    # As rules.table.search_key at the time of writing (a migration does not import the app).
    return unicodedata.normalize("NFC", name.replace("İ", "i").casefold())


def upgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('search_name', sa.String(length=72), nullable=True))
    players = sa.table(
        'players',
        sa.column('game_id', sa.String),
        sa.column('seat', sa.Integer),
        sa.column('name', sa.String),
        sa.column('search_name', sa.String),
    )
    connection = op.get_bind()
    update = (
        sa.update(players)
        .where(players.c.game_id == sa.bindparam('g'), players.c.seat == sa.bindparam('s'))
        .values(search_name=sa.bindparam('k'))
    )
    while True:
        rows = connection.execute(
            sa.select(players.c.game_id, players.c.seat, players.c.name)
            .where(players.c.search_name.is_(None))
            .limit(BATCH)
        ).all()
        if not rows:
            break
        connection.execute(update, [{'g': g, 's': s, 'k': _key(name)} for g, s, name in rows])
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.alter_column('search_name', existing_type=sa.String(length=72), nullable=False)


    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_round_changes_game_round')
        batch_op.create_index(
            'ix_round_changes_game_round_time',
            ['game_id', 'round_number', 'changed_at', 'id'],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_round_changes_game_round_time')
        batch_op.create_index(
            'ix_round_changes_game_round', ['game_id', 'round_number'], unique=False
        )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('search_name')
