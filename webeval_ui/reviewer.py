"""The reviewer: named once in the sidebar, kept in the URL (`?reviewer=`) and the session; or, on
a server that signs its users in, the identity the provider verified (email, else subject).

A save never clears it, and a page switch that drops it from the URL gets it back. With sign-in
nothing typed or linked names the reviewer: the sidebar shows who is signed in and "Sign out", and
a visitor not signed in sees only the sign-in prompt (`sign_in_prompt`). "Sign out" ends every
session of the identity: it is recorded in the annotation store (and by this server), and each
request of a session signed in before it, or longer ago than the maximum age, is signed out.
Light on purpose: every page draws the sidebar, and without sign-in none imports the annotation
store for it.
"""

from __future__ import annotations

import contextlib
import os
from datetime import UTC, datetime

import streamlit as st

from webeval_core.policy import SIGN_IN_ENV, RolesFileError, acting_as, current_policy
from webeval_ui.state import Key
from webeval_ui.untrusted import inert
from webeval_ui.widgets import lazy_expander


def sign_in_on() -> bool:
    """Whether this server signs its users in (`webeval app --auth FILE`)."""
    return os.environ.get(SIGN_IN_ENV, "") == "1"


def signed_in() -> str:
    """The identity sign-in verified (email, else subject); empty without sign-in or before it."""
    if not sign_in_on() or not st.user.get("is_logged_in"):
        return ""
    return str(st.user.get("email") or st.user.get("sub") or "").strip()


def reviewer() -> str:
    """The reviewer's name, stripped (with sign-in, the signed-in identity); empty when none."""
    if sign_in_on():
        return signed_in()
    name = st.query_params.get(Key.REVIEWER.value) or st.session_state.get(Key.REVIEWER_KEPT) or ""
    return str(name).strip()


def needs_sign_in() -> bool:
    """Whether this visitor must sign in before seeing anything: sign-in on, and nobody signed in
    or a session that is over (signed out elsewhere, or too old: `webeval_core.serving.signin.session_end`),
    which is signed out here and now (its cookie removed, copied or not).
    """
    if not sign_in_on():
        return False
    if signed_in() and _session_ended():
        st.logout()  # empties st.user now; the browser then drops the cookie
    return not signed_in()


def _session_ended() -> str | None:
    """Why this session's sign-in no longer counts; None while it does."""
    from webeval_core.serving import max_session_age, session_end

    now = datetime.now(UTC)
    return session_end(st.user.get("iat"), now, _last_sign_out(signed_in()), max_session_age())


@st.cache_resource(show_spinner=False)
def _sign_outs_here() -> dict[str, datetime]:
    """Sign-outs this server saw, by identity (casefolded): what the store could not record counts too."""
    return {}


def _last_sign_out(who: str) -> datetime | None:
    """The identity's last sign-out, as the store (shared by a team's servers) or this server knows it."""
    from webeval_core.review import StoreError
    from webeval_ui.review_store import review_store_quiet

    known = [_sign_outs_here().get(who.casefold())]
    store = review_store_quiet()
    if store is not None:
        with contextlib.suppress(StoreError):
            known.append(store.last_sign_out(who))
    return max((at for at in known if at is not None), default=None)


def _sign_out() -> None:
    """Sign out, and end every other session of this identity (tabs, other browsers, copied cookies)."""
    from webeval_core.review import StoreError
    from webeval_ui.review_store import review_store_quiet

    who, now = signed_in(), datetime.now(UTC)
    _sign_outs_here()[who.casefold()] = now
    store = review_store_quiet()
    if store is not None:
        # A read-only or unreachable store: this server still ends the sessions it serves.
        with contextlib.suppress(StoreError), acting_as(who, verified=True):
            store.record_sign_out(who, now)
    st.logout()


def sign_in_prompt() -> None:
    """The sign-in prompt, alone: the script stops after it."""
    st.title("webeval · trajectory inspector")
    st.write(
        "This server signs its users in. Sign in to browse the runs; what you may change"
        " (annotations, queues, corrections, scores) depends on the role your identity has here."
    )
    st.button("Sign in", type="primary", on_click=st.login)
    st.stop()


def reviewer_picker() -> None:
    """The sidebar's reviewer: kept in the URL (`?reviewer=`) and the session, never cleared by a save;
    with sign-in, who is signed in, their role and "Sign out".

    Its text box is drawn only when the expander is opened, like the root folder's: a text box
    costs every page load about 0.2 s of the browser's time.
    """
    if sign_in_on():
        _signed_in_box()
        return
    name = st.query_params.get(Key.REVIEWER.value) or st.session_state.get(Key.REVIEWER_KEPT) or ""
    st.session_state[Key.REVIEWER_KEPT] = name
    if name and st.query_params.get(Key.REVIEWER.value) != name:
        st.query_params[Key.REVIEWER.value] = name  # a page switch dropped it: put it back
    with st.sidebar:
        box = lazy_expander(f"Reviewer: {inert(name) if name else '(not named)'}", key=Key.REVIEWER_BOX)
        if box is not None:
            with box:
                st.text_input(
                    "Your name",
                    value=name,
                    key=Key.REVIEWER_TYPED,
                    max_chars=80,
                    placeholder="stored with each of your annotations",
                    on_change=_take_name,
                )


def _take_name() -> None:
    name = str(st.session_state.get(Key.REVIEWER_TYPED) or "").strip()
    st.session_state[Key.REVIEWER_KEPT] = name
    if name:
        st.query_params[Key.REVIEWER.value] = name
    else:
        st.query_params.pop(Key.REVIEWER.value, None)


def _signed_in_box() -> None:
    """Who is signed in (not editable), their role, and "Sign out"; a `?reviewer=` link is dropped."""
    st.query_params.pop(Key.REVIEWER.value, None)  # a crafted name names nobody here
    who = signed_in()
    try:
        role = current_policy().as_user(who, verified=True).role()
    except RolesFileError:
        role = None
    with st.sidebar:
        st.caption(f"Reviewer: **{inert(who)}** (signed in)")
        st.caption(f"Role: {role.value if role is not None else 'any (no roles file)'}")
        st.button("Sign out", key=Key.SIGN_OUT, on_click=_sign_out)
