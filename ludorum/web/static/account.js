// The lobby's "You" panel: who this browser is (a guest, an account, nobody yet), and the forms to play
// as a guest, change one's name, create an account, sign in with a password or a passkey, add a
// passkey and sign out (docs/accounts.md).
"use strict";
(function () {
  const { api, el } = Ludorum;
  const $ = (id) => document.getElementById(id);
  const passkeysWork = typeof PublicKeyCredential !== "undefined" && !!PublicKeyCredential.parseCreationOptionsFromJSON;

  function say(message, isError) {
    const note = $("account-note");
    note.textContent = message || "";
    note.className = isError ? "error" : "muted";
  }

  /** Run an account request; a refusal is said in the panel, and the panel is redrawn after success. */
  async function act(request) {
    try {
      await request();
      say("");
      await draw();
    } catch (e) {
      say(e.message || String(e), true);
    }
  }

  function field(label, name, type, autocomplete) {
    return el("label", {}, label, " ", el("input", { name, type, autocomplete, required: true, maxlength: type === "password" ? 256 : 24 }));
  }

  function form(legend, fields, button, onSubmit) {
    const node = el("form", { class: "account-form" }, el("fieldset", {}, el("legend", {}, legend), fields, el("button", { type: "submit" }, button)));
    node.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = Object.fromEntries(new FormData(node).entries());
      act(() => onSubmit(values));
    });
    return node;
  }

  async function addPasskey() {
    const options = await api("POST", "/api/me/passkeys/options");
    const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    await api("POST", "/api/me/passkeys", credential.toJSON());
  }

  async function passkeySignIn() {
    const options = await api("POST", "/api/session/passkey/options");
    const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    await api("POST", "/api/session/passkey", credential.toJSON());
  }

  function signedOutForms() {
    return [
      form(Ludorum.t("Sign in"), [field(Ludorum.t("Name"), "name", "text", "username"), field(Ludorum.t("Password"), "password", "password", "current-password")], Ludorum.t("Sign in"),
        (v) => api("POST", "/api/session", v)),
      passkeysWork ? el("p", {}, el("button", { type: "button", onclick: () => act(passkeySignIn) }, Ludorum.t("Sign in with a passkey"))) : null,
      form(Ludorum.t("Create an account"), [field(Ludorum.t("Name"), "name", "text", "username"), field(Ludorum.t("Password"), "password", "password", "new-password")], Ludorum.t("Create the account"),
        (v) => api("POST", "/api/accounts", v)),
    ];
  }

  function signedInForms(account) {
    return [
      form(Ludorum.t("Change your name"), [field(Ludorum.t("New name"), "name", "text", "username")], Ludorum.t("Rename"), (v) => api("PUT", "/api/me/name", v)),
      account.guest
        ? form(Ludorum.t("Keep your games: create an account"), [field(Ludorum.t("Name"), "name", "text", "username"), field(Ludorum.t("Password"), "password", "password", "new-password")],
          Ludorum.t("Create the account"), (v) => api("POST", "/api/accounts", v))
        : null,
      passkeysWork ? el("p", {}, el("button", { type: "button", onclick: () => act(addPasskey) }, Ludorum.t("Add a passkey"))) : null,
    ];
  }

  async function draw() {
    const who = $("account-who");
    const forms = $("account-forms");
    let account = null;
    try {
      account = (await api("GET", "/api/me")).account;
    } catch (e) {
      say(e.message || String(e), true);
      return;
    }
    who.replaceChildren(account
      ? el("span", {}, account.guest ? Ludorum.t("You play as the guest {name}.", { name: account.name }) : Ludorum.t("Signed in as {name}.", { name: account.name }),
        " ", account.passkeys ? Ludorum.tn("{n} passkey", "{n} passkeys", account.passkeys) : "")
      : el("span", {}, Ludorum.t("You are not signed in. Playing needs no account.")),
    " ",
    account
      ? el("button", { type: "button", onclick: () => act(() => api("DELETE", "/api/session")) }, Ludorum.t("Sign out"))
      : el("button", { type: "button", class: "primary", onclick: () => act(() => api("POST", "/api/guest")) }, Ludorum.t("Play as a guest")));
    forms.replaceChildren(...(account ? signedInForms(account) : signedOutForms()).filter(Boolean));
    Ludorum.account = account;
    document.dispatchEvent(new CustomEvent("ludorum:account", { detail: account }));
  }

  draw();
})();
