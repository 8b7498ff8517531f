"""Alembic migrations of the server database (shipped inside the package)."""
