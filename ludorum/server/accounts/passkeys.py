"""Passkeys: signing in with WebAuthn (the ``webauthn`` package does the cryptography).

A signed-in person registers a passkey (a discoverable credential, so that signing in needs no name);
an account with a passkey is no longer a guest.  Each ceremony starts with a challenge stored in the
database (so any server process may finish it), answered once within :data:`CHALLENGE_SECONDS`: an
expired or replayed challenge is refused.  The relying party is the host the browser asked, and the
origin must be the page's own.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import webauthn
from sqlalchemy import delete, select
from sqlalchemy.orm import Session
from webauthn.helpers import parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ludorum.engine.errors import LudorumError
from ludorum.engine.i18n import T
from ludorum.server.accounts.service import Account, Accounts, Locked, account_of, aware
from ludorum.server.accounts.tables import AccountRow, ChallengeRow, PasskeyRow

CHALLENGE_SECONDS = 300
"""How long a challenge may wait for its answer."""

REGISTER, SIGN_IN = "register", "sign_in"


class BadPasskey(LudorumError):
    """A passkey answer that does not verify: expired or replayed challenge, wrong origin, bad signature."""


def _client_challenge(credential: dict[str, Any]) -> bytes:
    try:
        data = webauthn.base64url_to_bytes(credential["response"]["clientDataJSON"])
        return parse_client_data_json(data).challenge
    except (KeyError, TypeError, ValueError, WebAuthnException):
        raise BadPasskey(T("the passkey's answer is malformed")) from None


class Passkeys:
    """The passkey ceremonies over an :class:`Accounts`' database."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    def _challenge(self, db: Session, challenge: bytes, purpose: str, account_id: str | None) -> None:
        at = self.accounts.clock()
        db.execute(delete(ChallengeRow).where(ChallengeRow.expires < at))  # the table stays small
        db.add(
            ChallengeRow(
                challenge=challenge,
                purpose=purpose,
                account_id=account_id,
                expires=at + dt.timedelta(seconds=CHALLENGE_SECONDS),
            )
        )

    def _take_challenge(self, db: Session, challenge: bytes, purpose: str) -> ChallengeRow:
        """The stored challenge, removed so that it cannot be answered twice."""
        row = db.get(ChallengeRow, challenge)
        if row is None or row.purpose != purpose:
            raise BadPasskey(T("this passkey challenge is unknown or was answered already; start again"))
        db.delete(row)
        if aware(row.expires) <= self.accounts.clock():
            raise BadPasskey(T("this passkey challenge has expired; start again"))
        return row

    def registration_options(self, token: str | None, rp_id: str) -> str:
        """The options (JSON) for ``navigator.credentials.create``, for the signed-in person."""
        with self.accounts.session.begin() as db:
            row = self.accounts.signed_in(db, token)
            known = db.scalars(select(PasskeyRow.credential_id).where(PasskeyRow.account_id == row.id)).all()
            options = webauthn.generate_registration_options(
                rp_id=rp_id,
                rp_name="Ludorum",
                user_name=row.name,
                user_id=row.id.encode(),
                exclude_credentials=[PublicKeyCredentialDescriptor(id=k) for k in known],
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.PREFERRED,
                ),
            )
            self._challenge(db, options.challenge, REGISTER, row.id)
        return webauthn.options_to_json(options)

    def register(self, token: str | None, credential: dict[str, Any], rp_id: str, origin: str) -> Account:
        """Store the passkey the browser made from :meth:`registration_options`."""
        challenge = _client_challenge(credential)
        with self.accounts.session.begin() as db:
            row = self.accounts.signed_in(db, token)
            pending = self._take_challenge(db, challenge, REGISTER)
            if pending.account_id != row.id:
                raise BadPasskey(T("this passkey challenge was made for another account"))
            try:
                made = webauthn.verify_registration_response(
                    credential=json.dumps(credential),
                    expected_challenge=challenge,
                    expected_rp_id=rp_id,
                    expected_origin=origin,
                )
            except WebAuthnException as e:
                raise BadPasskey(T("the passkey did not verify: {why}", why=str(e))) from None
            db.add(
                PasskeyRow(
                    credential_id=made.credential_id,
                    account_id=row.id,
                    public_key=made.credential_public_key,
                    sign_count=made.sign_count,
                    created=self.accounts.clock(),
                )
            )
            row.guest = False
            db.flush()
            count = len(
                db.scalars(select(PasskeyRow.credential_id).where(PasskeyRow.account_id == row.id)).all()
            )
            return account_of(row, count)

    def sign_in_options(self, rp_id: str, address: str) -> str:
        """The options (JSON) for ``navigator.credentials.get``; an address asks only so often."""
        wait = self.accounts.address_failures.wait(address)
        if wait > 0:
            raise Locked(T("too many failed sign-ins from your address; wait before trying again"), wait)
        options = webauthn.generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        with self.accounts.session.begin() as db:
            self._challenge(db, options.challenge, SIGN_IN, None)
        return webauthn.options_to_json(options)

    def sign_in(
        self, credential: dict[str, Any], rp_id: str, origin: str, address: str
    ) -> tuple[Account, str]:
        """A new session for the account whose passkey answered the challenge."""
        challenge = _client_challenge(credential)
        try:
            raw_id = webauthn.base64url_to_bytes(str(credential["rawId"]))
        except (KeyError, ValueError):
            raise BadPasskey(T("the passkey's answer is malformed")) from None
        failed: BadPasskey | None = None
        with self.accounts.session.begin() as db:
            self._take_challenge(db, challenge, SIGN_IN)  # removed even if what follows fails
            key = db.get(PasskeyRow, raw_id)
            if key is None:
                failed = BadPasskey(T("this passkey is not registered here"))
            else:
                try:
                    checked = webauthn.verify_authentication_response(
                        credential=json.dumps(credential),
                        expected_challenge=challenge,
                        expected_rp_id=rp_id,
                        expected_origin=origin,
                        credential_public_key=key.public_key,
                        credential_current_sign_count=key.sign_count,
                    )
                except WebAuthnException as e:
                    failed = BadPasskey(T("the passkey did not verify: {why}", why=str(e)))
                else:
                    key.sign_count = checked.new_sign_count
                    row = db.get(AccountRow, key.account_id)
                    assert row is not None  # the foreign key holds
                    return account_of(row), self.accounts.open_session(db, row.id)
        self.accounts.address_failures.count(address)
        raise failed
