"""Pages the site builds from the package itself (run by mkdocs-gen-files at every build).

- ``rules/<page>.md``: the rules pages, read from ``ludorum/web/rules/`` — the same files the web client
  serves, so each rules text has one copy.
- ``reference/api/``: one page per public module of the engine, agents, lab and rl layers (mkdocstrings
  renders each from its docstrings), with its own navigation.
- ``reference/http.md``'s ``openapi.json``: the server's OpenAPI document, written as the app states it.
"""

from __future__ import annotations

import json
from pathlib import Path

import mkdocs_gen_files

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ludorum"
DOCUMENTED = ("engine", "agents", "lab", "rl")
"""The layers whose public modules the Python API reference covers (the games, server and CLI are used
through them, through HTTP and through the command line)."""


def rules_pages() -> None:
    """Copy every packaged rules page into the site."""
    for page in sorted((PACKAGE / "web" / "rules").glob("*.md")):
        with mkdocs_gen_files.open(f"rules/{page.name}", "w") as out:
            out.write(page.read_text(encoding="utf-8"))
        mkdocs_gen_files.set_edit_path(f"rules/{page.name}", page.relative_to(ROOT))


def api_reference() -> None:
    """One page per public module of the documented layers, and their navigation."""
    nav = mkdocs_gen_files.Nav()
    for layer in DOCUMENTED:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if any(p.startswith("_") for p in parts[1:]):
                continue  # private modules, __init__ and __main__
            page = Path("reference", "api", *parts[1:]).with_suffix(".md")
            nav[parts[1:]] = page.relative_to("reference/api").as_posix()
            with mkdocs_gen_files.open(page, "w") as out:
                out.write(f"::: {'.'.join(parts)}\n")
    with mkdocs_gen_files.open("reference/api/SUMMARY.md", "w") as out:
        out.writelines(nav.build_literate_nav())


def openapi_document() -> None:
    """The server's OpenAPI document beside the HTTP reference page."""
    from ludorum.server import create_app

    with mkdocs_gen_files.open("reference/openapi.json", "w") as out:
        json.dump(create_app(database_url="sqlite://").openapi(), out, indent=1)


rules_pages()
api_reference()
openapi_document()
