"""The bot's languages: gettext catalogues, the language of the moment, numbers.

Every text a person reads goes through this module; the engine never translates
(it gives suits, ranks, phases and codes; the renderers turn them into words here).

How it works
------------
* The English text in the code is the message id. English needs no catalogue;
  every other language has ``bot/present/locale/<lang>/LC_MESSAGES/ruff.po``.
* The ``.po`` files are the only source: they are compiled in memory (with
  Babel) the first time a language is used, so nothing needs building after a
  clone or an edit, and no compiled ``.mo`` can fall out of date.
* Which language a text is in is the language *of the moment*, a context
  variable: an interaction sets its user's language when it arrives
  (:func:`enter`, called by the command tree and by every button), and whoever
  writes for somebody else says so with :func:`using` — the public table in the
  server's language (``/ruff settings language:``), a hand DM in its player's
  stored language (:class:`bot.tables.user_locales.UserLocales`). Unset, it is English.

The functions to use
--------------------
``_("text {name}").format(name=...)``
    a message; placeholders are ``str.format`` names, formatted *after* the
    lookup (never ``_(f"...")``: an f-string cannot be looked up).
``ngettext("{n} game", "{n} games", n).format(n=...)``
    a message with a count: the right plural form for the language.
``N_("text")``
    marks a text for extraction where it cannot be translated yet (a module
    constant); translate it where it is shown, with ``_(CONSTANT)``.
``number(x, digits)``, ``signed(x, digits)``, ``percent(x)``
    numbers written as the language writes them (``25.3`` / ``25,3``).

Adding or changing a text
-------------------------
1. Write it in the code wrapped as above.
2. ``python -m bot.present.i18n update`` — extracts every marked text of ``bot/`` into
   ``bot/present/locale/ruff.pot`` and merges it into each ``.po`` (new entries are empty,
   changed ones are marked fuzzy).
3. Translate the new entries in ``bot/present/locale/de/LC_MESSAGES/ruff.po`` (keep every
   ``{placeholder}`` of the English text; drop the ``fuzzy`` flag when done).
4. ``python -m bot.present.i18n check`` (and the tests in ``tests/bot/test_i18n.py``)
   fail while any text lacks a translation, a placeholder differs, or a marked
   text is missing from the catalogue. There is nothing to compile.

See ``docs/i18n.md`` for the German glossary (Trumpf, Stich, Honneurs …).
"""

from __future__ import annotations

import functools
import gettext
import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, overload

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol

__all__ = [
    "DEFAULT",
    "TextMap",
    "Texts",
    "LANGUAGES",
    "N_",
    "_",
    "current",
    "enter",
    "language_of",
    "load_catalogues",
    "ngettext",
    "number",
    "percent",
    "set_language",
    "signed",
    "translations",
    "using",
]

DOMAIN = "ruff"
LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT = "en"
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
"""The languages the bot speaks: code -> the language's own name."""

KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
"""The marker functions Babel's extractor looks for (see :func:`extract`)."""

_current: ContextVar[str] = ContextVar("rh_language", default=DEFAULT)


def language_of(locale: object) -> str:
    """The bot language for a Discord locale (``discord.Locale`` or its value such as
    ``"de"``, ``"en-US"``) or a language code: German for every ``de`` locale,
    English for everything else (the languages without a catalogue)."""
    value = str(getattr(locale, "value", locale) or "").lower()
    code = value.replace("_", "-").split("-")[0]
    return code if code in LANGUAGES else DEFAULT


@functools.cache
def _compiled(language: str) -> tuple[gettext.NullTranslations, dict[str, str]]:
    """``language``'s catalogue compiled from its .po: the gettext translations (for the
    plural forms) and its plain messages as a dict (``_()`` runs on every line of every
    message, and a dict lookup is what it should cost)."""
    if language == DEFAULT or language not in LANGUAGES:
        return gettext.NullTranslations(), {}
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    plain = {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.fuzzy
    }
    return gettext.GNUTranslations(buf), plain


def load_catalogues() -> None:
    """Compile every language's catalogue now (a start-up's work): compiled lazily, the
    first German text of a process would hold its loop for the .po's parsing (about
    0.3 s), in the middle of whatever game needed it."""
    for language in LANGUAGES:
        _compiled(language)


def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: no catalogue, the ids as they are)."""
    return _compiled(language)[0]


def current() -> str:
    """The language of the moment."""
    return _current.get()


def set_language(language: str) -> None:
    """Make ``language`` the language of the running task from now on (an interaction's
    handler: every task runs in its own context, so this ends with the task)."""
    _current.set(language if language in LANGUAGES else DEFAULT)


def enter(interaction: Any) -> str:
    """An interaction arrived: its user's language becomes the language of the moment
    (ephemeral answers follow it). Returns that language."""
    language = language_of(getattr(interaction, "locale", None))
    set_language(language)
    return language


@contextmanager
def using(language: str) -> Iterator[None]:
    """Write in ``language`` inside the block (the table for its server, a DM for its player)."""
    token = _current.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the language of the moment."""
    language = _current.get()
    if language == DEFAULT:
        return message
    return _compiled(language)[1].get(message, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the language of the moment."""
    return translations(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker
    """Marks ``message`` for extraction only; translate it with ``_()`` where it is shown."""
    return message


def number(value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals, as the language writes it: Python's rounding
    (so English stays exactly as the bot always wrote it, ``1234.5``) with the
    language's decimal sign from Babel's CLDR data (German ``1234,5``); no grouping."""
    text = f"{value:.{digits}f}"
    language = _current.get()
    return text if language == DEFAULT else text.replace(".", _decimal_sign(language))


def signed(value: float, digits: int = 0) -> str:
    """``value`` with its sign always shown (``+1.2``, ``-0.4``; German ``+1,2``)."""
    text = number(value, digits)
    return text if text.startswith(("-", "−")) else "+" + text


def percent(value: float) -> str:
    """A share 0..1 as a whole percentage (``57%``; German ``57 %``)."""
    pct = number(round(value * 100))
    return f"{pct}\u00a0%" if _current.get() == "de" else f"{pct}%"


@functools.cache
def _decimal_sign(language: str) -> str:
    return str(get_decimal_symbol(Locale.parse(language)))


# ---------------------------------------------------------------- maintenance


def extract(root: Path | None = None) -> Any:
    """Every marked text under ``bot/`` as a Babel catalogue (what ``update`` writes to the .pot)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    root = root or Path(__file__).resolve().parents[1]  # bot/: every layer has texts
    catalog = Catalog(project="ruff-and-honours", domain=DOMAIN, charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("i18n:",)
    ):
        catalog.add(
            message, None, [(f"bot/{filename}", lineno)], auto_comments=comments, context=context
        )
    return catalog


def _update() -> None:
    from babel.messages.pofile import write_po

    template = extract()
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, template, omit_header=False, width=100, sort_output=True)
    for language in LANGUAGES:
        if language == DEFAULT:
            continue
        path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=language, domain=DOMAIN)
        else:  # a new language: an empty catalogue with the language's plural rule
            from babel.messages.catalog import Catalog

            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(
                locale=language, domain=DOMAIN, project="ruff-and-honours", charset="utf-8"
            )
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as f:
            write_po(
                f,
                catalog,
                width=100,
                sort_output=True,
                ignore_obsolete=True,
                include_previous=False,
            )
        print(f"updated {path}")


def problems(language: str, path: Path | None = None) -> list[str]:
    """What is wrong with ``language``'s catalogue (``path``, by default the bot's
    own): untranslated or fuzzy entries, placeholders that differ from the English
    text, and marked texts of the code that it lacks. Empty when it is complete."""
    import re

    field = re.compile(r"\{[^{}]*\}")
    path = path or LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    out: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strs = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            out.append(f"fuzzy: {ids[0]!r}")
        if not all(strs) or (isinstance(message.id, tuple) and len(strs) != catalog.num_plurals):
            out.append(f"untranslated: {ids[0]!r}")
            continue
        for i, s in enumerate(str(x) for x in strs):
            # a plural's first form answers the singular id, the others the plural id;
            # a singular form may leave out the count ("ein Spiel" for "{n} game")
            source = str(ids[min(i, len(ids) - 1)])
            wanted, got = set(field.findall(source)), set(field.findall(s))
            if got != wanted and not (len(ids) > 1 and got < set(field.findall(ids[-1]))):
                out.append(f"placeholders differ: {ids[0]!r} -> {s!r}")
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    for message in extract():
        key = message.id if isinstance(message.id, str) else message.id[0]
        if key and key not in known:
            out.append(f"not in the catalogue: {key!r}")
    return out


def main(argv: list[str]) -> int:
    """``python -m bot.present.i18n update|check``."""
    command = argv[0] if argv else "check"
    if command == "update":
        _update()
        return 0
    if command == "check":
        bad = [
            f"{language}: {p}"
            for language in LANGUAGES
            if language != DEFAULT
            for p in problems(language)
        ]
        print("\n".join(bad) or "every catalogue is complete")
        return 1 if bad else 0
    print("usage: python -m bot.present.i18n update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


# ---------------------------------------------------------------- translated constants


class Texts(tuple[str, ...]):
    """A tuple of texts (marked with :func:`N_`) read in the language of the moment:
    ``SIDE_NAMES[0]`` is ``"North & South"`` or ``"Nord & Süd"``, as the reader needs."""

    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        if isinstance(index, slice):
            return tuple(_(s) for s in item)
        return _(item)

    def __iter__(self) -> Iterator[str]:
        return (_(s) for s in super().__iter__())


class TextMap(dict[str, str]):
    """A dict whose values are texts (marked with :func:`N_`) read in the language of
    the moment; a missing key's default is returned as given."""

    def __getitem__(self, key: str) -> str:
        return _(super().__getitem__(key))

    @classmethod
    def of(cls, *texts: str) -> TextMap:
        """Each of ``texts`` (English, each marked with :func:`N_`) to itself: a fixed
        set of the engine's English texts, looked up as the engine wrote them."""
        return cls({text: text for text in texts})

    @overload  # type: ignore[override]
    def get(self, key: str, default: None = None, /) -> str | None: ...

    @overload
    def get(self, key: str, default: str, /) -> str: ...

    def get(self, key: str, default: str | None = None, /) -> str | None:
        value = super().get(key)
        return default if value is None else _(value)
