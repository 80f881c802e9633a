"""table codes: a keyed hash per game and its wrong guesses

Revision ID: 0007_table_codes
Revises: 0006_search_names
Create Date: 2026-11-25

Reviewed: one new table, nothing else changes. A game's table code is kept only as an HMAC
keyed with the app's secret key (the code itself is never stored), with the count of wrong
codes tried in the current window; the row goes with its game (ON DELETE CASCADE).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007_table_codes'
down_revision = '0006_search_names'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('table_codes',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('code_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('window_started_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('failures >= 0', name=op.f('ck_table_codes_failures')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_table_codes_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_table_codes'))
    )


def downgrade():
    op.drop_table('table_codes')
