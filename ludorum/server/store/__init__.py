"""Storage: the database (tables, writer, migrations), the archive of views, retired games, the news of
other server processes."""
