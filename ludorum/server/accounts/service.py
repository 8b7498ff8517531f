"""What a person can do with an account: become a guest, register, sign in and out, rename, change the
password, export and delete — over the server's database, one short transaction each.

Every method is blocking (a database round trip, and Argon2 for passwords): the routes call them off
the event loop.  A session is a random token in an HttpOnly cookie; the database keeps its SHA-256.
Signing in always makes a new token (no session fixation); a changed password ends every other session.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ludorum.engine.errors import LudorumError
from ludorum.engine.i18n import T
from ludorum.server.accounts import names, passwords, throttle
from ludorum.server.accounts.tables import AccountRow, PasskeyRow, SessionRow, now
from ludorum.server.security import token_hash

SESSION_DAYS = 30
"""How long a session lasts without signing in again."""


class NameTaken(LudorumError):
    """Another account has this name, or one that looks the same."""


class WrongCredentials(LudorumError):
    """No account has this name and password (which of the two is wrong is not said)."""


class Locked(LudorumError):
    """Too many wrong passwords: wait ``seconds`` before trying again."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class NotSignedIn(LudorumError):
    """The request carries no live session."""


@dataclasses.dataclass(frozen=True, slots=True)
class Account:
    """A person as the rest of the server sees them."""

    id: str
    name: str
    guest: bool
    has_password: bool
    passkeys: int = 0

    def to_json(self) -> dict[str, Any]:
        """The public form (``GET /api/me``)."""
        return {
            "id": self.id,
            "name": self.name,
            "guest": self.guest,
            "password": self.has_password,
            "passkeys": self.passkeys,
        }


def account_of(row: AccountRow, passkeys: int = 0) -> Account:
    """The :class:`Account` a row describes."""
    return Account(row.id, row.name, row.guest, row.password_hash is not None, passkeys)


class Accounts:
    """The accounts of one database."""

    def __init__(
        self, engine: Engine, *, clock: Callable[[], dt.datetime] = now, rng: random.Random | None = None
    ) -> None:
        self.session = sessionmaker(engine, expire_on_commit=False)
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.address_failures = throttle.Window(throttle.ADDRESS_FAILURES, throttle.ADDRESS_WINDOW)
        self.new_guests = throttle.Window(throttle.GUESTS_PER_ADDRESS, throttle.GUEST_WINDOW)

    # -- sessions ------------------------------------------------------------------------------------

    def open_session(self, db: Session, account_id: str) -> str:
        """A new session for ``account_id`` in ``db``'s transaction; its token (only the hash is stored)."""
        token = secrets.token_urlsafe(32)
        at = self.clock()
        db.add(
            SessionRow(
                token_hash=token_hash(token),
                account_id=account_id,
                created=at,
                expires=at + dt.timedelta(days=SESSION_DAYS),
            )
        )
        return token

    def _row_for(self, db: Session, token: str | None) -> AccountRow | None:
        if not token:
            return None
        found = db.execute(
            select(AccountRow, SessionRow.expires)
            .join(SessionRow, SessionRow.account_id == AccountRow.id)
            .where(SessionRow.token_hash == token_hash(token))
        ).first()
        if found is None or aware(found[1]) <= self.clock():
            return None
        return found[0]

    def signed_in(self, db: Session, token: str | None) -> AccountRow:
        """The row of the account ``token`` signs in, or :class:`NotSignedIn`."""
        row = self._row_for(db, token)
        if row is None:
            raise NotSignedIn(T("sign in first (or play as a guest)"))
        return row

    def account_for(self, token: str | None) -> Account | None:
        """The account a session token signs in, or ``None`` (no token, unknown or expired)."""
        with self.session() as db:
            row = self._row_for(db, token)
            if row is None:
                return None
            keys = db.scalar(select(func.count()).where(PasskeyRow.account_id == row.id)) or 0
            return account_of(row, keys)

    def sign_out(self, token: str | None) -> None:
        """End the session ``token`` opened (nothing if it is unknown)."""
        if token:
            with self.session.begin() as db:
                db.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash(token)))

    # -- becoming someone ----------------------------------------------------------------------------

    def new_guest(self, address: str) -> tuple[Account, str]:
        """A guest with a generated name, and its session token; an address makes only so many."""
        wait = self.new_guests.wait(address)
        if wait > 0:
            raise Locked(T("your address has made many guests lately; wait before making another"), wait)
        self.new_guests.count(address)
        for _ in range(20):
            name = names.guest_name(self.rng)
            try:
                with self.session.begin() as db:
                    row = AccountRow(
                        id=secrets.token_hex(8),
                        name=name,
                        name_key=names.name_key(name),
                        guest=True,
                        created=self.clock(),
                    )
                    db.add(row)
                    db.flush()
                    return account_of(row), self.open_session(db, row.id)
            except IntegrityError:
                continue  # the generated name was taken: draw another
        raise NameTaken(T("no free guest name was found; try again"))

    def register(self, token: str | None, name: str, password: str) -> tuple[Account, str]:
        """An account named ``name`` with ``password``, and a new session token.  A signed-in guest
        becomes that account (keeping its id, so its seats stay its own); a signed-in account is refused."""
        name = names.check_name(name)
        stored = passwords.hash_password(passwords.check_password(password))
        try:
            with self.session.begin() as db:
                row = self._row_for(db, token)
                if row is not None and not row.guest:
                    raise NameTaken(T("you already have an account: sign out first to make another"))
                if row is None:
                    row = AccountRow(id=secrets.token_hex(8), created=self.clock())
                    db.add(row)
                row.name, row.name_key, row.password_hash, row.guest = (
                    name,
                    names.name_key(name),
                    stored,
                    False,
                )
                db.flush()
                # a new token: the guest's old one is ended, so a cookie planted before cannot follow
                db.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
                return account_of(row), self.open_session(db, row.id)
        except IntegrityError:
            raise NameTaken(T("the name «{name}» is taken (or looks like one that is)", name=name)) from None

    def sign_in(self, name: str, password: str, address: str) -> tuple[Account, str]:
        """A new session for the account ``name`` if ``password`` is its password."""
        wait = self.address_failures.wait(address)
        if wait > 0:
            raise Locked(T("too many wrong passwords from your address; wait before trying again"), wait)
        key = names.name_key(name) if isinstance(name, str) else ""
        with self.session.begin() as db:
            row = db.scalar(select(AccountRow).where(AccountRow.name_key == key))
            at = self.clock()
            if row is not None and row.locked_until is not None and aware(row.locked_until) > at:
                wait = (aware(row.locked_until) - at).total_seconds()
                raise Locked(T("too many wrong passwords for this account; wait before trying again"), wait)
            if row is None or row.password_hash is None or not isinstance(password, str):
                ok, new_hash = False, None
            else:
                ok, new_hash = passwords.verify(password[: passwords.MAX_LENGTH + 1], row.password_hash)
            if not ok:
                self.address_failures.count(address)
                if row is not None:  # counted in the database, committed with this block
                    row.failures += 1
                    row.locked_until = throttle.lock_after(row.failures, at)
                signed = None
            else:
                assert row is not None  # a password matched: the row exists
                row.failures, row.locked_until = 0, None
                if new_hash is not None:
                    row.password_hash = new_hash
                db.flush()
                signed = account_of(row), self.open_session(db, row.id)
        if signed is None:
            raise WrongCredentials(T("wrong name or password"))
        return signed

    # -- changing oneself ----------------------------------------------------------------------------

    def rename(self, token: str | None, name: str) -> Account:
        """Change the signed-in person's display name."""
        name = names.check_name(name)
        try:
            with self.session.begin() as db:
                row = self.signed_in(db, token)
                row.name, row.name_key = name, names.name_key(name)
                db.flush()
                return account_of(row)
        except IntegrityError:
            raise NameTaken(T("the name «{name}» is taken (or looks like one that is)", name=name)) from None

    def change_password(self, token: str | None, old: str, new: str) -> None:
        """Set a new password (the old one must be given when there is one); every other session ends."""
        new_hash = passwords.hash_password(passwords.check_password(new))
        with self.session.begin() as db:
            row = self.signed_in(db, token)
            if row.password_hash is not None and not (
                isinstance(old, str)
                and passwords.verify(old[: passwords.MAX_LENGTH + 1], row.password_hash)[0]
            ):
                raise WrongCredentials(T("the current password is wrong"))
            row.password_hash, row.guest = new_hash, False
            assert token is not None  # _signed_in checked it
            db.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == row.id, SessionRow.token_hash != token_hash(token)
                )
            )

    def export(self, token: str | None) -> dict[str, Any]:
        """Everything stored about the signed-in person, as JSON."""
        with self.session() as db:
            row = self.signed_in(db, token)
            keys = db.scalars(select(PasskeyRow.created).where(PasskeyRow.account_id == row.id)).all()
            sessions = db.scalars(select(SessionRow.created).where(SessionRow.account_id == row.id)).all()
            return {
                "account": {
                    **account_of(row, len(keys)).to_json(),
                    "created": aware(row.created).isoformat(),
                },
                "passkeys": [{"created": aware(c).isoformat()} for c in keys],
                "sessions": [{"created": aware(c).isoformat()} for c in sessions],
            }

    def delete(self, token: str | None) -> None:
        """Delete the signed-in account, its sessions and passkeys."""
        with self.session.begin() as db:
            row = self.signed_in(db, token)
            db.delete(row)


def aware(when: dt.datetime) -> dt.datetime:
    """SQLite returns naive datetimes for aware columns: they are UTC."""
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)
