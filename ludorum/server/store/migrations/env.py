"""Alembic environment: runs on the connection the server hands over, or on ``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from ludorum.server.store.db import migration_lock
from ludorum.server.store.tables import Base

target_metadata = Base.metadata


def run() -> None:
    """Run the migrations online (the server never generates offline SQL)."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or context.config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///path.sqlite3 upgrade head")
    engine = create_engine(url)
    with engine.connect() as conn:
        migration_lock(conn)  # the server's own runs take it in db.migrate
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
