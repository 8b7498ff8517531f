"""Accounts: people with names, passwords and passkeys, and the sessions that sign them in.

Playing needs no account: a guest plays at once under a generated name it can change, and a guest who
creates an account keeps that identity (the same row, now with a password).  Everything here is
optional for the rest of the server, which knows a person only as an account id.
"""
