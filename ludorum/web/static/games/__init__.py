"""Board renderers, one per game (a package only so that they ship with ludorum)."""
