"""The accounts' HTTP routes (``/api/me``, ``/api/accounts``, ``/api/session``, ``/api/guest``) over
``ludorum.server.accounts``.

The session travels in the ``ludorum_session`` cookie: HttpOnly, SameSite=Lax, and Secure when the
request came over HTTPS (directly or, behind a proxy uvicorn trusts, as ``X-Forwarded-Proto``).  Every
handler runs the blocking work (database, Argon2) in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from ludorum.server.accounts import names, passkeys, passwords, service
from ludorum.server.accounts.passkeys import Passkeys
from ludorum.server.accounts.service import Accounts
from ludorum.server.errors import ApiError, retry_later, said
from ludorum.server.http.language import LocalizedRoute
from ludorum.server.limits import client_key

COOKIE = "ludorum_session"
"""The session cookie's name."""

router = APIRouter(prefix="/api", tags=["accounts"], route_class=LocalizedRoute)

R = TypeVar("R")


class Credentials(BaseModel):
    """A name and a password."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class NewName(BaseModel):
    """A display name."""

    name: str = Field(max_length=200)


class NewPassword(BaseModel):
    """The current password (empty if there is none yet) and the new one."""

    old: str = Field(default="", max_length=1000)
    new: str = Field(max_length=1000)


def accounts_of(request: Request) -> Accounts:
    """The app's accounts."""
    found: Accounts = request.app.state.accounts
    return found


def passkeys_of(request: Request) -> Passkeys:
    """The app's passkey ceremonies."""
    return Passkeys(accounts_of(request))


def session_token(request: Request) -> str | None:
    """The session token the request carries, if any."""
    return request.cookies.get(COOKIE) or None


def _address(request: Request) -> str:
    """Who the request counts against (its address, or its IPv6 /64)."""
    return client_key(request.client.host if request.client else None)


def _set_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=service.SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


async def _run(fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` in a thread, its refusals said as the API says them."""
    try:
        return await asyncio.to_thread(fn, *args)
    except (names.BadName, passwords.BadPassword) as e:
        raise ApiError(422, "invalid_request", said(e)) from None
    except service.NameTaken as e:
        raise ApiError(409, "name_taken", said(e)) from None
    except service.WrongCredentials as e:
        raise ApiError(403, "wrong_credentials", said(e)) from None
    except service.NotSignedIn as e:
        raise ApiError(401, "not_signed_in", said(e)) from None
    except service.Locked as e:
        raise retry_later("too_many_attempts", said(e), e.seconds) from None


@router.get("/me")
async def me(request: Request) -> dict[str, Any]:
    """Who the request's session signs in (``account: null`` when nobody)."""
    account = await _run(accounts_of(request).account_for, session_token(request))
    return {"account": account.to_json() if account else None}


@router.post("/guest")
async def guest(request: Request, response: Response) -> dict[str, Any]:
    """Play as a guest: a generated name and a session (an existing session is kept)."""
    accounts = accounts_of(request)
    current = await _run(accounts.account_for, session_token(request))
    if current is not None:
        return {"account": current.to_json()}
    account, token = await _run(accounts.new_guest, _address(request))
    _set_cookie(request, response, token)
    return {"account": account.to_json()}


@router.post("/accounts", status_code=201)
async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Create an account (a signed-in guest becomes it, keeping its games) and sign it in."""
    account, token = await _run(
        accounts_of(request).register, session_token(request), body.name, body.password
    )
    _set_cookie(request, response, token)
    return {"account": account.to_json()}


@router.post("/session")
async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in with a name and password: a new session (any session the browser had is ended)."""
    accounts = accounts_of(request)
    account, token = await _run(accounts.sign_in, body.name, body.password, _address(request))
    await _run(accounts.sign_out, session_token(request))
    _set_cookie(request, response, token)
    return {"account": account.to_json()}


@router.delete("/session", status_code=204)
async def sign_out(request: Request, response: Response) -> None:
    """End this browser's session."""
    await _run(accounts_of(request).sign_out, session_token(request))
    response.delete_cookie(COOKIE, path="/")


@router.put("/me/name")
async def rename(body: NewName, request: Request) -> dict[str, Any]:
    """Change one's display name."""
    account = await _run(accounts_of(request).rename, session_token(request), body.name)
    return {"account": account.to_json()}


@router.put("/me/password", status_code=204)
async def change_password(body: NewPassword, request: Request) -> None:
    """Change one's password; every other session of the account ends."""
    await _run(accounts_of(request).change_password, session_token(request), body.old, body.new)


@router.get("/me/export")
async def export(request: Request) -> dict[str, Any]:
    """Everything stored about oneself, as JSON."""
    return await _run(accounts_of(request).export, session_token(request))


@router.delete("/me", status_code=204)
async def delete_account(request: Request, response: Response) -> None:
    """Delete one's account; its sessions end."""
    await _run(accounts_of(request).delete, session_token(request))
    response.delete_cookie(COOKIE, path="/")


def _relying_party(request: Request) -> tuple[str, str]:
    """The WebAuthn relying party id (the host the browser asked) and the expected origin."""
    url = request.url
    return url.hostname or "localhost", f"{url.scheme}://{url.netloc}"


async def _passkey(fn: Callable[..., R], *args: Any) -> R:
    try:
        return await _run(fn, *args)
    except passkeys.BadPasskey as e:
        raise ApiError(422, "passkey_refused", said(e)) from None


@router.post("/me/passkeys/options")
async def passkey_options(request: Request) -> Response:
    """Start registering a passkey for oneself: options for ``navigator.credentials.create``."""
    rp_id, _origin = _relying_party(request)
    options = await _passkey(passkeys_of(request).registration_options, session_token(request), rp_id)
    return Response(options, media_type="application/json")


@router.post("/me/passkeys", status_code=201)
async def add_passkey(body: dict[str, Any], request: Request) -> dict[str, Any]:
    """Finish registering: the credential ``navigator.credentials.create`` made."""
    rp_id, origin = _relying_party(request)
    account = await _passkey(passkeys_of(request).register, session_token(request), body, rp_id, origin)
    return {"account": account.to_json()}


@router.post("/session/passkey/options")
async def passkey_sign_in_options(request: Request) -> Response:
    """Start signing in with a passkey: options for ``navigator.credentials.get``."""
    rp_id, _origin = _relying_party(request)
    options = await _passkey(passkeys_of(request).sign_in_options, rp_id, _address(request))
    return Response(options, media_type="application/json")


@router.post("/session/passkey")
async def passkey_sign_in(body: dict[str, Any], request: Request, response: Response) -> dict[str, Any]:
    """Finish signing in: the assertion ``navigator.credentials.get`` made; a new session."""
    rp_id, origin = _relying_party(request)
    account, token = await _passkey(passkeys_of(request).sign_in, body, rp_id, origin, _address(request))
    await _run(accounts_of(request).sign_out, session_token(request))
    _set_cookie(request, response, token)
    return {"account": account.to_json()}
