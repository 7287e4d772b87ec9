"""Bid Whist played whole through the real bot (simcord, a real SQLite file, the real
engine): four people from their DMs, and one person with three easy AI players.

What a player would notice is checked on the way: a button per bid one may make
now, with readable names, and nothing else live; the auction by player name on
the table and in every DM; the contract, its declarer and the books it needs; the
declarer naming trumps or the direction; the kitty (face down, or shown to all);
jokers by name; hands in the contract's rank order; a summary per deal with the
books needed and made (the kitty the first) and the points per side; the end at
plus or minus 7 explained; the leaderboard's rows.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.present.layout import layout_text as message_text
from bot.store import ResultRepo
from engine import Game, SeatView, Suit, decode_action
from engine.actions import Action, Discard, Pass
from engine.ai import get_player
from engine.families.bid_whist import contract_points

from .dm_play import JOKERS, MODES, NAMES, SEATS, open_table, play_out
from .helpers import buttons, feed, hand_line, hand_message, raw_text, table_message
from .test_bid_whist_controls import (
    RANKS_DOWN,
    RANKS_DOWN_ACE_LOW,
    RANKS_UP,
    _assert_in_order,
    _suit_groups,
)
from .test_whole_games_from_dms import _durable

EASY = get_player("easy")


def bid_label(code: str) -> str:
    return "Pass" if code == "pass" else f"{code[0]} {MODES[code[1]]}"


def ai_choice(game: Game, view: SeatView) -> Action:
    return EASY.choose(view, view.legal, random.Random(game.version))


def lay_out(view: SeatView) -> list[Action]:
    """The kitty's worth of the weakest cards: no jokers, no trumps, low in the contract's order."""
    cards = [a.card for a in view.legal if isinstance(a, Discard)]
    if len(cards) <= view.to_lay_out:
        return [Discard(c) for c in cards]
    order = view.rank_order

    def weakness(card: Any) -> tuple[int, int]:
        trump = card.is_joker or card.suit is view.trump
        return (1 if trump else 0, order.strength(card))

    return [Discard(c) for c in sorted(cards, key=weakness)[: view.to_lay_out]]


def longest_suit(view: SeatView) -> Suit:
    counts = {s: sum(1 for c in view.hand if not c.is_joker and c.suit is s) for s in Suit}
    return max(Suit, key=lambda s: counts[s])


def _bid_whist_checks(channel: Any, players: list[Any], seen: dict[str, Any]) -> Any:
    """Checks of the table and every DM before each click (see the module docstring)."""

    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        public = game.observe(0)
        dms = [hand_message(p) for p in players]
        for dm in dms:  # jokers never by their codes, nor with a suit symbol
            assert not re.search(r"\b(BJ|LJ)\b|Joker[♠♥♦♣]|[♠♥♦♣]\s?(Big|Little)", dm.content), (
                dm.content
            )
        if public.auction:
            line = "Auction: " + " · ".join(f"{NAMES[s]} {bid_label(c)}" for s, c in public.auction)
            assert line in text.splitlines()
            for seat, dm in enumerate(dms):  # until a turn to play, where the contract says it
                deciding = game.to_act() == seat and bool(public.contract)  # so does a decision
                if not (game.phase == "play" and dm.content.startswith("🟢 **Your turn")):
                    assert (line in dm.content.splitlines()) != deciding, dm.content
        if game.phase == "bidding":
            seat = game.to_act()
            assert f"▶ **{SEATS[4][seat]}** — <@{players[seat].id}> to bid" in text
            assert "Trumps: **none yet — the bidding decides**" in text
            dm = dms[seat]
            labels = [  # Pass, and the bids in their menu
                getattr(b, "label", None) for b in buttons(dm) if not hasattr(b, "options")
            ]
            labels += [o.label for b in buttons(dm) if hasattr(b, "options") for o in b.options]
            assert all(
                re.fullmatch(r"Pass|[3-7] (uptown|downtown|no trump)", lab) for lab in labels
            ), labels
            if "Pass" not in labels:
                seen["dealer_must_bid"] = True
                assert seat == game.dealer and "you (the dealer) must bid" in dm.content
            return
        declarer = public.declarer
        assert declarer is not None
        code = public.contract
        assert f"Contract: **{bid_label(code)}" in text
        side = ("NS", "EW")[declarer % 2]
        assert f"declared by {SEATS[4][declarer]} ({NAMES[declarer]}) · {side} need" in text
        assert f"need {6 + int(code[0])} of 13 books (the kitty is the first)" in text
        if game.phase == "name":
            seen.setdefault("named", []).append(code)
            assert f"to name {'uptown or downtown' if code[1] == 'n' else 'trumps'}" in text
        if game.phase == "play":
            seen["contracts"][public.deal_no] = (code, declarer)
            holders = [s for s in range(4) if "From the kitty:" in dms[s].content]
            # the kitty stays private, shown to its taker until the first trick is done
            first_trick = not game.observe(declarer).completed_tricks
            assert holders == ([declarer] if first_trick else []), holders
            assert "Shown to all" not in text
            assert (
                f"Kitty: {SEATS[4][declarer]} ({NAMES[declarer]}) laid out 6 cards face down"
                in text
            )
            order = public.rank_order
            ranks = (
                RANKS_UP
                if order.direction == "uptown"
                else (RANKS_DOWN if order.downtown_ace == "high" else RANKS_DOWN_ACE_LOW)
            )
            if order.direction == "downtown":
                seen.setdefault("downtown", set()).add("nt" if public.trump is None else "suit")
                assert "downtown (A 2 3 … K)" in text
            for seat, dm in enumerate(dms):
                line = hand_line(dm)
                for group in _suit_groups(line):
                    _assert_in_order(group, ranks)
                held = [
                    JOKERS[c.code]
                    for c in sorted(game.hand(seat), key=lambda c: -c.index)
                    if c.is_joker
                ]
                if held:
                    seen["jokers"] = True
                    cards = line.split(": ", 1)[1]
                    # the top trumps lead the hand; in no trump, where they never win, they close it
                    if public.trump is None:
                        assert cards.endswith(" · ".join(held)), cards
                    else:
                        assert cards.startswith(" · ".join(held)), cards
                    if seat == game.to_act() and game.phase == "play":  # off turn: the text line
                        assert set(held) <= {b.label for b in buttons(dm)}

    return each


SCRIPT = {
    1: ["pass", "pass", "pass", "3u"],  # everyone passes: the dealer must bid
    2: ["3u", "3d", "pass", "pass"],  # downtown outranks uptown at the same number
    3: ["pass", "3n", "pass", "pass"],  # no trump, then downtown named
}


def script_policy(game: Game, view: SeatView) -> list[Action]:
    if view.phase == "bidding":
        calls = SCRIPT.get(view.deal_no, ["7n", "pass", "pass", "pass"])
        code = calls[len(view.auction)]
        action = Pass() if code == "pass" else decode_action(f"bid:{code}")
        assert action in view.legal, (code, view.legal)
        return [action]
    if view.phase == "name":
        if view.contract.endswith("n"):
            return [decode_action("dir:down")]
        return [decode_action(f"trump:{longest_suit(view).value}")]
    if view.phase == "kitty":
        return lay_out(view)
    return [ai_choice(game, view)]


SUMMARY = re.compile(
    r"\*\*Deal (\d+) of game 1\*\* — ([3-7] (?:uptown|downtown|no trump)) declared by (\w+) \((\w+)\) "
    r"with (\w+) \((\w+)\): (NS|EW) needed (\d+) books and made (\d+) \(the kitty \+ (\d+) tricks?\) "
    r"— (✅ made|❌ set)(?: \(no trump counts double\))? → NS ([+-]?\d+) · EW ([+-]?\d+)\n"
    r"Score: NS \*\*(-?\d+)\*\* · EW \*\*(-?\d+)\*\* \(game is 7; a side at -7 or below loses\)"
)


def _check_summaries(game: Game, posts: list[str], contracts: dict[int, tuple[str, int]]) -> int:
    """Each deal's summary against the contract played; returns the deals summed up."""
    totals = [0, 0]
    found = 0
    for post in posts:  # oldest first
        m = SUMMARY.search(post)
        if m is None:
            continue
        found += 1
        deal = int(m.group(1))
        code, declarer = contracts[deal]
        side = declarer % 2
        assert m.group(2) == bid_label(code)
        assert (m.group(3), m.group(4)) == (SEATS[4][declarer], NAMES[declarer])
        assert (m.group(5), m.group(6)) == (SEATS[4][(declarer + 2) % 4], NAMES[(declarer + 2) % 4])
        assert m.group(7) == ("NS", "EW")[side]
        need, books, tricks = int(m.group(8)), int(m.group(9)), int(m.group(10))
        assert need == 6 + int(code[0]) and books == 1 + tricks
        made, points = contract_points(game.rules, code, books)
        assert m.group(11) == ("✅ made" if made else "❌ set") and made == (books >= need)
        gained = [int(m.group(12)), int(m.group(13))]
        assert gained[side] == points and gained[1 - side] == 0  # the defenders score nothing
        totals[side] += points
        assert [int(m.group(14)), int(m.group(15))] == totals
    assert totals == game.scores
    return found


async def _results(env: Any, table: Any, humans: int) -> None:
    game = table.game
    rows = {r.name: r for r in await ResultRepo(env.bot.db).for_table(table.id)}
    assert set(rows) == set(NAMES[:humans])
    winner = game.match_winner
    for seat in range(humans):
        r = rows[NAMES[seat]]
        side = seat % 2
        assert (r.side, r.points, r.opp_points, r.won) == (
            side,
            game.scores[side],
            game.scores[1 - side],
            side == winner,
        )


def _final_explains_the_end(table: Any, text: str) -> None:
    game = table.game
    winner = game.match_winner
    assert winner is not None
    sides = ("North & South", "East & West")
    who = [table.info().who(s) for s in range(4)]
    head = f"🏆 **{sides[winner]}** — {who[winner]} & {who[winner + 2]} — win: "
    assert head in text, text
    scores = f"(NS {game.scores[0]} · EW {game.scores[1]})"
    if game.scores[winner] >= 7:
        assert f"reached {game.scores[winner]}, and game is 7 {scores}" in text
    else:
        loser = 1 - winner
        assert game.scores[loser] <= -7
        assert (
            f"{sides[loser]} fell to {game.scores[loser]}, and a side at -7 or below loses {scores}"
            in text
        )


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 61}])
async def test_bid_whist_four_humans_from_their_dms(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(env, 4, "bid-whist")
    table = env.bot.manager.tables[1]
    seen: dict[str, Any] = {"contracts": {}}
    await play_out(
        env, table, players, script_policy, _bid_whist_checks(channel, players, seen), limit=700
    )
    game = table.game
    assert seen.get("dealer_must_bid") and seen.get("jokers")
    assert seen.get("downtown") == {"suit", "nt"}, seen.get("downtown")
    assert {code for code, _ in seen["contracts"].values()} >= {"3u", "3d", "3n"}

    posts = [m.content for m in feed(channel)]  # the channel and the table's thread
    assert _check_summaries(game, posts, seen["contracts"]) == len(seen["contracts"]) >= 3
    final_post = next(p for p in posts if "win game 1: " in p)
    assert final_post.startswith("🃏 Table #1 · **Deal")
    _final_explains_the_end(table, message_text(table_message(channel)))
    await _durable(env, table)
    await _results(env, table, 4)


@pytest.mark.slow
@pytest.mark.parametrize("bot_settings", [{"seed": 62}])
async def test_bid_whist_one_human_with_three_easy_ai_kitty_shown_to_all(simcord_env: Any) -> None:
    env = simcord_env
    guild, channel, players = await open_table(
        env, 1, "bid-whist", options="kitty_exposed=true, declare_before_kitty=false", ai=3
    )
    table = env.bot.manager.tables[1]
    kitties: list[int] = []  # the deals whose kitty was checked

    def each(game: Game) -> None:
        text = message_text(table_message(channel))
        public = game.observe(0)
        if game.phase in ("name", "kitty", "play") and public.declarer is not None:
            kitty = game.observe(public.declarer).stock_taken
            shown = next(ln for ln in text.splitlines() if ln.startswith("Kitty: "))
            for card in kitty:
                assert JOKERS.get(card.code, card.pretty) in shown.split("Shown to all: ", 1)[1]
            if not public.completed_tricks:  # every seat sees it, until the first trick is done
                assert "From the kitty: " in hand_message(players[0]).content
            if game.phase == "name":  # taken before naming (declare_before_kitty = false)
                assert "took its 6 cards and lays out 6" in shown
            kitties.append(public.deal_no)

    def policy(game: Game, view: SeatView) -> list[Action]:
        if view.phase == "kitty":
            return lay_out(view)
        return [ai_choice(game, view)]

    await play_out(env, table, players, policy, each, limit=700)
    game = table.game
    assert game.is_over and (max(game.scores) >= 7 or min(game.scores) <= -7)
    posts = [m.content for m in feed(channel)]  # the channel and the table's thread
    assert len(set(kitties)) >= 2
    assert any("**Deal 1 of game 1**" in p for p in posts)
    _final_explains_the_end(table, message_text(table_message(channel)))
    await _durable(env, table)
    rows = await ResultRepo(env.bot.db).for_table(table.id)
    assert len(rows) == 1 and rows[0].side == 0 and rows[0].points == game.scores[0]
    assert rows[0].won == (game.match_winner == 0)


async def test_bid_whist_new_table_and_rules(simcord_env: Any) -> None:
    env = simcord_env
    guild = env.create_guild(name="Card Room")
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    res = await alice.slash(channel, "ruff rules", game="bid-whist")
    text = res.response.content
    assert res.response.ephemeral
    for words in (
        "Bid Whist",
        "Big and Little Joker",
        "6-card kitty",
        "uptown, downtown or no trump",
        "first book",
        "Game is 7; a side at minus 7 loses.",
    ):
        assert words in text, (words, text)
    res = await alice.slash(channel, "ruff new", game="bid-whist")
    lobby = raw_text(res.response.components)
    assert "🃏 **Bid Whist** · preset `default`" in lobby
    assert "Partners sit opposite: **North & South** vs **East & West** · game to 7" in lobby
