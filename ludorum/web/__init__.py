"""The browser client: static files served by the server (``static/``), one renderer per game."""
