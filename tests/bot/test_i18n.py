"""The bot's languages: the catalogues are complete and match the code, plural forms
and numbers follow the language, the engine's own words are covered, the slash
commands are localized; and a whole game with a German-speaking player."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord.interactions
from discord import app_commands

import bot
from bot.features.info.info import plural
from bot.present import i18n
from bot.present.i18n import _, ngettext, number, percent, signed, using
from bot.present.layout import layout_text as message_text
from bot.present.locales import CommandTranslator
from bot.present.render import action_label, card_label, card_text, hand_text, rules_text
from bot.present.render.refusals import REFUSALS, reason_text
from bot.present.render.rules_text import RULE_SHAPES, rule_line, shape_of
from bot.store import UserLocaleRepo
from engine import Card, game_ids, make_rules, presets_for
from engine.actions import Discard, Play

from .conftest import make_settings, restart
from .helpers import buttons, choose, choose_cards, find_select, hand_message

BOT = Path(bot.__file__).parent
ENGINE = BOT.parent / "engine"


# ---------------------------------------------------------------- the catalogues


def test_the_german_catalogue_is_complete_and_its_placeholders_match() -> None:
    assert i18n.problems("de") == []


def test_the_check_fails_on_a_missing_translation_and_a_changed_placeholder(tmp_path: Path) -> None:
    """The completeness check itself: a catalogue with an empty entry, a renamed
    placeholder and a fuzzy entry is reported, entry by entry."""
    po = tmp_path / "ruff.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Trick {number}: {played}"\nmsgstr "Stich {nummer}: {played}"\n\n'
        'msgid "Join"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Leave"\nmsgstr "Aufstehen"\n\n'
        'msgid "{n} game"\nmsgid_plural "{n} games"\nmsgstr[0] "eine Partie"\nmsgstr[1] "{n} Partien"\n',
        encoding="utf-8",
    )
    found = i18n.problems("de", po)
    assert "placeholders differ: 'Trick {number}: {played}' -> 'Stich {nummer}: {played}'" in found
    assert "untranslated: 'Join'" in found
    assert "fuzzy: 'Leave'" in found
    assert not any(
        "{n} game" in p and "placeholders" in p for p in found
    )  # "eine Partie" may leave out {n}
    assert any(p.startswith("not in the catalogue: ") for p in found)  # the code's other texts


def _ids(catalog: Any) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def test_extraction_finds_no_text_outside_the_catalogue() -> None:
    """Babel's extractor run over bot/ finds exactly the template's texts, and the
    German catalogue holds every one of them (run ``python -m bot.present.i18n update``)."""
    from babel.messages.pofile import read_po

    extracted = _ids(i18n.extract())
    with (i18n.LOCALE_DIR / "ruff.pot").open("rb") as f:
        template = _ids(read_po(f))
    with (i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / "ruff.po").open("rb") as f:
        german = _ids(read_po(f, locale="de"))
    assert extracted - template == set(), "texts missing from ruff.pot"
    assert template - extracted == set(), "ruff.pot holds texts the code no longer has"
    assert extracted <= german


def test_no_text_is_looked_up_from_an_f_string() -> None:
    """``_(f"...")`` can never be found in a catalogue: the placeholders go after the lookup."""
    bad = []
    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_", "ngettext")
                and any(isinstance(a, ast.JoinedStr) for a in node.args)
            ):
                bad.append(f"{path.name}:{node.lineno}")
    assert bad == []


def test_every_engine_refusal_is_translated() -> None:
    """Each fixed refusal the engine can raise is in bot/present/render/refusals.py (a new
    engine text fails here until it is added and translated)."""
    texts: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None))
                in ("IllegalAction", "not_your_turn")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                texts.add(node.args[0].value)
            if isinstance(node, ast.FunctionDef) and node.name.endswith(
                "_refusal"
            ):  # the reasons it returns
                texts.update(
                    r.value.value
                    for r in ast.walk(node)
                    if isinstance(r, ast.Return)
                    and isinstance(r.value, ast.Constant)
                    and isinstance(r.value.value, str)
                )
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and getattr(node.targets[0], "id", None) in ("absent", "waiting")
                and isinstance(node.value, ast.Constant)
                and node.value.value
            ):
                texts.add(str(node.value.value))
    assert len(texts) > 30
    assert sorted(texts - set(REFUSALS)) == []
    with using("de"):
        assert reason_text("It is not your turn.") == "Du bist nicht dran."
        assert (
            reason_text("You must follow suit: you hold ♥.")
            == "Du musst Farbe bedienen: du hast ♥."
        )
        assert reason_text("10♠ is not in your hand.") == "10♠ hast du nicht auf der Hand."
        assert reason_text("An engine text not known yet.") == "An engine text not known yet."
        assert (
            reason_text("There is only 1 trick left to claim.")
            == "Es ist nur noch 1 Stich zu beanspruchen."
        )


def test_every_rules_line_of_every_preset_reads_in_german() -> None:
    for game in game_ids():
        for preset in presets_for(game):
            for line in make_rules(game, preset).describe()[1:]:
                if re.fullmatch(
                    r"(Spades|Hearts|Diamonds|Clubs) are trumps\.", line
                ) or line.startswith("Trumps rotate"):
                    continue
                assert shape_of(line)[0] in RULE_SHAPES, f"{game}/{preset}: {line!r}"
                with using("de"):
                    german = rule_line(line)
                assert german != line, f"{game}/{preset}: {line!r} not translated"
                assert shape_of(line)[1] == shape_of(german)[1] or set(shape_of(line)[1]) == set(
                    shape_of(german)[1]
                )
    with using("de"):
        text = rules_text(make_rules("ruff-honours-cotton"))
        assert "Die Partie geht bis 9." in text and "Farbe bedienen" in text and "Honneurs" in text
        assert rule_line("Trumps rotate each deal: hearts, diamonds, spades, clubs.") == (
            "Trumpf wechselt mit jedem Spiel: Herz, Karo, Pik, Kreuz."
        )
    assert "Game is 9." in rules_text(
        make_rules("ruff-honours-cotton")
    )  # English stays the default


# ---------------------------------------------------------------- plurals, numbers, cards


def test_plural_forms_follow_the_count_in_each_language() -> None:
    assert [plural(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert [plural(n, "win") for n in (0, 1, 2)] == ["0 wins", "1 win", "2 wins"]
    with using("de"):
        assert [plural(n, "game") for n in (0, 1, 2)] == ["0 Partien", "1 Partie", "2 Partien"]
        assert [plural(n, "win") for n in (1, 3)] == ["1 Sieg", "3 Siege"]
        assert ngettext("{n} trick", "{n} tricks", 1).format(n=1) == "1 Stich"
        assert ngettext("{n} trick", "{n} tricks", 13).format(n=13) == "13 Stiche"


def test_numbers_are_written_as_the_language_writes_them() -> None:
    assert (number(25.34, 1), signed(1.25, 1), signed(-0.4, 1), percent(0.5)) == (
        "25.3",
        "+1.2",
        "-0.4",
        "50%",
    )
    assert number(1234.5, 1) == "1234.5"  # no grouping: the bot's numbers stay as they were
    with using("de"):
        assert (number(25.34, 1), signed(1.25, 1), percent(0.5)) == ("25,3", "+1,2", "50\u00a0%")


def test_cards_and_controls_in_german() -> None:
    queen, jack = Card.parse("QH"), Card.parse("JS")
    assert card_text(queen) == "Q♥"
    with using("de"):
        assert card_text(queen) == "D♥"  # Dame
        assert card_label(jack).startswith("B♠")  # Bube
        assert hand_text([queen, jack], None).count("D") == 1
        assert action_label(Play(queen)) == card_label(queen)
        assert action_label(Discard(queen)) == card_label(queen)
        assert _("Take my seat back") == "Platz zurücknehmen"
    assert _("Take my seat back") == "Take my seat back"


def test_a_language_is_chosen_from_a_discord_locale() -> None:
    assert i18n.language_of(discord.Locale.german) == "de"
    assert i18n.language_of("de-AT") == "de"
    assert i18n.language_of(discord.Locale.american_english) == "en"
    assert i18n.language_of(discord.Locale.french) == "en"  # no French catalogue: English
    assert i18n.language_of(None) == "en"


# ---------------------------------------------------------------- slash commands


async def test_slash_commands_carry_german_descriptions_and_keep_their_names(
    simcord_env: Any,
) -> None:
    tree = simcord_env.bot.tree
    translator = CommandTranslator()
    ruff = tree.get_command("ruff")
    assert isinstance(ruff, app_commands.Group)
    payload = await ruff.get_translated_payload(tree, translator)
    assert payload["name"] == "ruff" and payload.get("name_localizations", {}) == {}
    assert (
        payload["description_localizations"]["de"]
        == "Ruff and Honours und seine Verwandten spielen"
    )
    new = next(o for o in payload["options"] if o["name"] == "new")
    assert new["description_localizations"]["de"] == "Einen Tisch in diesem Kanal eröffnen"
    assert new.get("name_localizations", {}) == {}  # /ruff new stays /ruff new
    target = next(o for o in new["options"] if o["name"] == "target")
    assert target["description_localizations"]["de"] == "Punkte zum Gewinn einer Partie"
    settings = next(o for o in payload["options"] if o["name"] == "settings")
    pictures = next(o for o in settings["options"] if o["name"] == "pictures")
    assert [c.get("name_localizations", {}).get("de") for c in pictures["choices"]] == ["an", "aus"]
    assert "en-US" not in payload["description_localizations"]  # English is the text itself
    for option in payload["options"]:  # Discord's limit holds in German too
        assert len(option["description_localizations"].get("de", "")) <= 100
        for sub in option.get("options", []):
            assert len(sub.get("description_localizations", {}).get("de", "")) <= 100


# ---------------------------------------------------------------- a game in German


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The simulator sends every interaction with the locale ``en-US``; the users whose
    ids are put in the returned set send ``de``, as a German Discord client does."""
    users: set[int] = set()
    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(*args, **kwargs)
        if kwargs.get("user_id") in users:
            payload["locale"] = "de"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return users


def table_message(channel: Any) -> discord.Message:
    """The public table message, in whichever language the table speaks."""
    return next(
        m
        for m in channel.history()
        if re.match(r"🃏 \*?\*?.*· ([Tt]able|Tisch) #\d+", message_text(m))
    )


def _label(action: Any, language: str) -> str:
    with using(language):
        if isinstance(action, Play):
            return card_label(action.card)
        return action_label(action)


async def _play_turn(player: Any, game: Any, seat: int, language: str) -> None:
    """The seat's owner does what :func:`choose` picks, clicking the labels of their language."""
    msg = hand_message(player)
    actions = choose(game.observe(seat))
    if isinstance(actions[0], Discard):
        select = find_select(msg)
        assert select is not None
        await choose_cards(player.user, msg, [a.card.code for a in actions][: select.min_values])
        return
    await player.user.click(msg, label=_label(actions[0], language))


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 113}])
async def test_a_german_player_plays_a_whole_game_in_german(
    simcord_env: Any, german: set[int]
) -> None:
    """alice's Discord speaks German, bob's English; the server's tables speak German
    (``/ruff settings language:de``), then English after a switch mid-game. Every DM
    and every ephemeral answer is in its reader's language; the table, its thread
    and its buttons follow the server."""
    env = simcord_env
    guild = env.create_guild(name="Kartenraum")
    channel = guild.create_text_channel("whist")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    german.add(alice.id)

    res = await alice.slash(channel, "ruff settings", language="de")  # not hers to change
    assert res.ephemeral and "Nur Mitglieder mit **Server verwalten**" in res.response.content
    res = await mod.slash(channel, "ruff settings", language="de")
    assert (
        res.ephemeral and "table language: **Deutsch**" in res.response.content
    )  # the mod reads English

    res = await alice.slash(channel, "ruff new", target=3)
    assert not res.ephemeral
    lobby = table_message(channel)
    assert "Eröffnet von alice" in message_text(lobby) and "> Nord: alice" in message_text(lobby)
    await bob.click(lobby, label="Mitspielen")  # the table's buttons are German too
    res = await bob.click(table_message(channel), label="Mitspielen")
    assert res.ephemeral and res.response.content == "You already sit East."  # bob's own language
    res = await bob.click(table_message(channel), label="Starten")
    assert (
        res.ephemeral
        and res.response.content == "Only the opener can start before every seat is filled."
    )
    for _level in range(2):
        await alice.click(table_message(channel), label="KI dazu (leicht)")
    await alice.click(table_message(channel), label="Starten")

    db = env.bot.db
    # the players' locales are stored as they get their hands; the mod plays no game here
    assert await UserLocaleRepo(db).get_many([alice.id, bob.id, mod.id]) == {
        alice.id: "de",
        bob.id: "en-US",
    }
    table = env.bot.manager.tables[1]
    players = {0: (alice, "de"), 1: (bob, "en")}
    switched = False
    for _turn in range(300):
        game = table.game
        if game.is_over:
            break
        a, b = hand_message(alice).content, hand_message(bob).content
        assert (
            "Du bist **Nord**, Partner Süd" in a
            and "Trumpf: **" in a
            and "Stand: NS" in a
            and "Your" not in a
        )
        assert "You are **East**, partner West" in b and "Trumps: **" in b and "Score: NS" in b
        text = message_text(table_message(channel))
        if not switched:
            assert (
                "Trumpf: **" in text and "Stiche in diesem Spiel: NS" in text and "Geber:" in text
            )
        else:
            assert "Trumps: **" in text and "Tricks this deal: NS" in text
        seat = game.to_act()
        assert seat in players, "the AI never keeps a human waiting"
        player, language = players[seat]
        if language == "de":
            assert a.startswith("🟢 **Du")  # "Du bist dran", "Du sagst an"
        else:
            assert b.startswith("🟢 **Your")
        await _play_turn(player, game, seat, language)
        if not switched and table.game.deal_no > 1:
            thread = [m.content for m in channel.threads[0].history()]
            assert any("**Spiel 1 der Partie 1**" in p for p in thread), (
                "the deal summary speaks German"
            )
            res = await mod.slash(channel, "ruff settings", language="en")
            assert "the tables here speak it from their next change" in res.response.content
            switched = True
    else:
        raise AssertionError("the game did not finish")
    assert switched, "seed 113 plays two deals"

    final = message_text(table_message(channel))
    assert "**finished**" in final and "Press **Rematch**" in final  # English since the switch
    assert "Die Partie ist vorbei — du hast" in hand_message(alice).content
    assert "The game is over — you" in hand_message(bob).content

    assert "Rematch" in [b.label for b in buttons(table_message(channel))]
    res = await alice.slash(channel, "ruff stats")
    assert (
        res.ephemeral
        and "1 Partie · " in res.response.content
        and "Wertung **" in res.response.content
    )
    res = await bob.slash(channel, "ruff stats")
    assert (
        res.ephemeral
        and "1 game · " in res.response.content
        and "Rating **" in res.response.content
    )
    res = await alice.slash(channel, "ruff rules")
    assert "Farbe bedienen" in res.response.content
    res = await bob.slash(channel, "ruff rules")
    assert "Follow suit" in res.response.content


async def test_after_a_restart_the_hand_dm_keeps_its_players_language(
    simcord_env: Any,
    german: set[int],
    db_path: Path,
    bot_settings: dict[str, Any],
    more_bots: list[Any],
) -> None:
    """The DM carries no locale: the restarted bot reads alice's from the database, so
    the hand it redraws on resuming is still German (and her ephemeral copy too)."""
    env = simcord_env
    guild = env.create_guild(name="Kartenraum")
    channel = guild.create_text_channel("whist")
    alice = guild.add_member(env.create_user("alice"))
    german.add(alice.id)
    await alice.slash(channel, "ruff new")
    for _level in range(3):
        await alice.click(table_message(channel), label="Add AI (easy)")  # an English server
    await alice.click(table_message(channel), label="Start")
    before = hand_message(alice)
    assert "Du bist **Nord**" in before.content

    await restart(env, more_bots, make_settings(db_path, **bot_settings))
    manager = env.bot.manager
    assert manager.user_locales.language(alice.id) == "de"  # loaded with the resumed table
    await manager.services.notifier.flush()
    after = hand_message(alice)
    assert "Du bist **Nord**" in after.content and "Stand: NS" in after.content
    assert "Trumps: **" in message_text(table_message(channel))  # the table stays English
    res = await alice.click(table_message(channel), label="My hand")
    assert res.ephemeral and "Du bist **Nord**" in res.response.content


# the modules that write what players read (found anywhere under bot/, by name or by a
# pattern), and the few English texts in them that are not shown (the engine's words
# they match, regular expressions, links)
TEXT_MODULES = (
    "render/*.py",
    "cog.py",
    "client.py",
    "components.py",
    "controls.py",
    "lobby.py",
    "play.py",
    "drivers.py",
    "resume.py",
    "presenter.py",
    "info.py",
    "records.py",
    "replay.py",
    "server_settings.py",
    "picture.py",
    "drawing.py",
    "chart.py",
    "features/**/*.py",
)
NOT_SHOWN = {
    "render/common.py": ("a side at ", " cannot score honours", ": no side holds three"),
    "render/rules_text.py": ("Trumps rotate each deal: ", "no trumps", "(?P<"),
    "render/refusals.py": ("(?P<", "You must follow suit: you hold"),
    "lobby.py": (" — https://discord.com/channels/",),
}
NOT_TEXT_CALLS = {
    "_",
    "N_",
    "ngettext",
    "debug",
    "info",
    "warning",
    "exception",
    "error",
    "compile",
    "RuntimeError",
    "ValueError",
    "TypeError",
    "AssertionError",
    "create_task",
    "own",
    "call",
}


def test_no_player_facing_text_is_left_outside_the_translation_layer() -> None:
    """Every string of a text module that reads as words is inside ``_()``, ``N_()`` or
    ``ngettext()`` (or a log line, a docstring, or one of the few texts never shown)."""
    left: list[str] = []
    for pattern in TEXT_MODULES:
        for path in sorted(BOT.rglob(pattern)):
            rel = path.relative_to(BOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"))
            parents = {
                child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
            }
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                    continue
                text = node.value
                if sum(ch.isalpha() for ch in text) < 3 or " " not in text.strip():
                    continue
                if isinstance(parents.get(node), ast.Expr):  # a docstring
                    continue
                known = next((v for k, v in NOT_SHOWN.items() if rel.endswith(k)), ())
                if any(s in text for s in known) or text in known:
                    continue
                up: ast.AST = node
                marked = False
                while up in parents:
                    up = parents[up]
                    if isinstance(up, ast.Call):
                        name = getattr(up.func, "id", None) or getattr(up.func, "attr", None)
                        if name in NOT_TEXT_CALLS:
                            marked = True
                            break
                    if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        break
                if not marked:
                    left.append(f"{rel}:{node.lineno}: {text!r}")
    assert left == [], "\n".join(left)


def test_a_picture_drawn_elsewhere_speaks_the_tables_language() -> None:
    """The painter draws in a process of its own, where no language is set: the scene
    carries the table's language, so the picture's words (and its alt text) follow it."""
    import dataclasses
    import threading

    from bot.present import picture as pic
    from bot.present.chart import deal_history, draw_chart
    from tools.bench_picture import Form, play, table_info

    game, view = next((g, v) for g, v in play(Form("whist-5"), seed=2, max_deals=1) if v.trick)
    info = dataclasses.replace(table_info(game), language="de")
    with using("de"):
        scene = pic.scene_of(info, view, info.names)
    assert scene.language == "de" and scene.seat_labels[0] == "Nord"
    drawn: list[Any] = []
    # a plain thread starts with no language of the moment (English), as the painter's process does
    worker = threading.Thread(target=lambda: drawn.append(pic.draw_table(scene)))
    worker.start()
    worker.join()
    assert "Trumpf:" in drawn[0].description and "Stich " in drawn[0].description
    points = deal_history(game.to_record())
    charts: list[Any] = []
    worker = threading.Thread(
        target=lambda: charts.append(draw_chart(info, points, game.n_players))
    )
    worker.start()
    worker.join()
    assert "Punktekurve" in charts[0].description
    english = pic.scene_of(table_info(game), view)
    assert english != scene  # the language is part of the picture's key: a switch redraws
