"""The web platform's server: lobby, seats, WebSocket play, persistence and server-side bots.

``create_app(registry=..., database_url=...)`` builds the FastAPI application; ``serve`` runs it.
"""

from ludorum.server.http.app import create_app
from ludorum.server.run import serve

__all__ = ["create_app", "serve"]
