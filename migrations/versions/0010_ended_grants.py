"""ended grants: a browser's right to keep score that another took over

Revision ID: 0010_ended_grants
Revises: 0009_trick_tally
Create Date: 2026-11-28

Reviewed: one new table, nothing else changes. When a phone takes the scorekeeping over (a
hand-over link, the table code), every other grant of the game ends: its row moves here (the
device key's hash, the game, cascading with it, and when), so that the old phone's next write
is told another phone took over. Grants ended before this revision were deleted, not kept.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010_ended_grants'
down_revision = '0009_trick_tally'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('ended_grants',
    sa.Column('device_hash', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_ended_grants_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_hash', 'game_id', name=op.f('pk_ended_grants'))
    )
    with op.batch_alter_table('ended_grants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ended_grants_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('ended_grants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ended_grants_game_id'))

    op.drop_table('ended_grants')
