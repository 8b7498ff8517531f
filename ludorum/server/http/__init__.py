"""The HTTP side of the server: the app factory, routes, request and answer schemas, languages."""
