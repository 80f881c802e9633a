"""sharing: one-time hand-over links

Revision ID: 0003_sharing
Revises: 0002_browser_ui
Create Date: 2026-11-21

Reviewed: a hand-over link's token hash (the token itself is never stored), its game
(cascading with the game), when it was made, when it expires, and when it was redeemed.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0003_sharing'
down_revision = '0002_browser_ui'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('handovers',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_handovers_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('token_hash', name=op.f('pk_handovers'))
    )
    with op.batch_alter_table('handovers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_handovers_game_id'), ['game_id'], unique=False)


def downgrade():
    with op.batch_alter_table('handovers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_handovers_game_id'))

    op.drop_table('handovers')
