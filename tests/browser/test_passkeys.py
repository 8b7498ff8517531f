"""Passkeys end to end: Chromium's virtual authenticator (over CDP) registers a passkey with the
server and signs in with it; a replayed assertion is refused (issue 36)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.server.support import LiveServer

pytestmark = pytest.mark.browser

# The page's side of the ceremonies, as a site's script runs them: the server's options in, the
# browser's credential (PublicKeyCredential.toJSON) out.
REGISTER = """async () => {
  const post = (url, body) => fetch(url, {method: url.endsWith('/name') ? 'PUT' : 'POST',
    headers: {'Content-Type': 'application/json'}, body: body && JSON.stringify(body)});
  await post('/api/guest');
  await post('/api/me/name', {name: 'Passkey-Pia'});
  const options = await (await post('/api/me/passkeys/options')).json();
  const credential = await navigator.credentials.create(
    {publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)});
  const answer = await post('/api/me/passkeys', credential.toJSON());
  return {status: answer.status, body: await answer.json()};
}"""

SIGN_IN = """async () => {
  await fetch('/api/session', {method: 'DELETE'});
  const signedOut = await (await fetch('/api/me')).json();
  const options = await (await fetch('/api/session/passkey/options', {method: 'POST'})).json();
  const credential = await navigator.credentials.get(
    {publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
  const assertion = JSON.stringify(credential.toJSON());
  const send = () => fetch('/api/session/passkey', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: assertion});
  const first = await send();
  const me = await (await fetch('/api/me')).json();
  const replay = await send();
  return {signedOut, status: first.status, me, replay: replay.status, replayBody: await replay.json()};
}"""


def test_a_passkey_registers_and_signs_in_once_per_challenge(page: Page, server: LiveServer) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    # WebAuthn needs a secure context and a domain for its relying party: localhost, not 127.0.0.1
    page.goto(f"http://localhost:{server.port}/")
    made: dict[str, Any] = page.evaluate(REGISTER)
    assert made["status"] == 201, made
    assert made["body"]["account"]["name"] == "Passkey-Pia"
    assert made["body"]["account"]["guest"] is False and made["body"]["account"]["passkeys"] == 1

    signed: dict[str, Any] = page.evaluate(SIGN_IN)
    assert signed["signedOut"]["account"] is None
    assert signed["status"] == 200, signed
    assert signed["me"]["account"]["name"] == "Passkey-Pia"
    assert signed["replay"] == 422 and signed["replayBody"]["error"]["code"] == "passkey_refused"
