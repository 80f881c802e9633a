"""browser UI: grants, trick drafts, corrections

Revision ID: 0002_browser_ui
Revises: 0001_initial
Create Date: 2026-11-21

Reviewed: a browser's edit right (the hash of its device key, per game, cascading with the
game); each player's trick draft, kept while a round is played and never scored; when a
round was corrected. Autogenerate missed the draft's check constraint: added by hand.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002_browser_ui'
down_revision = '0001_initial'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('grants',
    sa.Column('device_hash', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_grants_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('device_hash', 'game_id', name=op.f('pk_grants'))
    )
    with op.batch_alter_table('grants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_grants_game_id'), ['game_id'], unique=False)

    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('draft_tricks', sa.Integer(), nullable=True))
        batch_op.create_check_constraint(op.f('ck_entries_draft_tricks'), 'draft_tricks >= 0')

    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('corrected_at', sa.DateTime(timezone=True), nullable=True))



def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('corrected_at')

    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_entries_draft_tricks'), type_='check')
        batch_op.drop_column('draft_tricks')

    with op.batch_alter_table('grants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_grants_game_id'))

    op.drop_table('grants')
