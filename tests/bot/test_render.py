"""bot/present/render.py is pure: engine views in, text out. Checked on real engine games."""

from __future__ import annotations

import re

from bot.present import render
from bot.present.render import SeatInfo, TableInfo, card_text, suit_symbol
from engine import Card, Game, make_rules, new_game

from .helpers import choose, hand_cards, table_seed

NAMES = ("alice", "bob", "Cotton", "dave")


def _info(game: Game) -> TableInfo:
    seats = tuple(
        SeatInfo(name, None, "normal") if name == "Cotton" else SeatInfo(name, 1000 + i)
        for i, name in enumerate(NAMES)
    )
    return TableInfo(
        7, game.rules, seats, "Card Room", "ruff", "https://discord.com/channels/1/2/3"
    )


def _mentions(text: str, card: Card) -> bool:
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(card_text(card))}", text) is not None


def _step(game: Game) -> None:
    seat = game.to_act()
    assert seat is not None
    for action in choose(game.observe(seat)):
        game.apply(seat, action)


def test_table_text_shows_trumps_trick_turn_and_score() -> None:
    game, _ = new_game(seed=4, overrides={"target_score": "5"})
    while not (game.phase == "play" and len(game.trick) == 2):
        _step(game)
    info = _info(game)
    view = game.observe(0)
    text = render.table_text(info, view, ["bob declines the ruff."])
    lines = text.splitlines()
    assert lines[0] == "🃏 **Ruff and Honours** · preset `cotton1674` · table #7 · game 1, deal 1"
    trump = game.trump
    assert (
        f"Trumps: **{suit_symbol(trump)} {trump.name.lower()}** (turned up {card_text(game.turn_up)})"
        in text
    )
    leader = game.leader
    played = " · ".join(
        f"{'NESW'[(leader + i) % 4]} {card_text(c)}" for i, c in enumerate(game.trick)
    )
    assert f"Trick {game.trick_no}: {played}" in lines
    seat = game.to_act()
    who = f"<@{1000 + seat}>" if NAMES[seat] != "Cotton" else "Cotton 🤖"
    assert lines[-1] == f"▶ **{render.SEAT_NAMES[seat]}** — {who} to play"
    assert f"Score: NS **{game.scores[0]}** · EW **{game.scores[1]}** (game to 5)" in lines
    assert f"Tricks this deal: NS {game.tricks[0]} · EW {game.tricks[1]}" in lines
    assert "• bob declines the ruff." in lines
    assert "N: alice (" in text and "W: dave (" in text and "Cotton 🤖" in text


def test_the_same_table_text_for_every_seat() -> None:
    """The public table uses only public fields: any seat's view renders the same text."""
    game, _ = new_game(seed=9)
    for _ in range(30):
        _step(game)
    info = _info(game)
    texts = {render.table_text(info, game.observe(seat)) for seat in range(4)}
    assert len(texts) == 1


def test_hands_and_table_never_show_hidden_cards() -> None:
    """Across a whole game: a hand shows only its own cards; the table no hand at all."""
    game, _ = new_game(seed=table_seed(113), overrides={"target_score": "3"})
    info = _info(game)
    states = 0
    while not game.is_over:
        public = {c for _, c in game.observe(0).shown_honours}
        turn_up = game.observe(0).turn_up
        if turn_up is not None:
            public.add(turn_up)
        for seat in range(4):
            view = game.observe(seat)
            text = render.hand_message(info, view)
            assert sorted(c.code for c in hand_cards(text)) == sorted(
                c.code for c in game.hand(seat)
            )
            assert f"Your hand ({len(view.hand)})" in text
            for other in range(4):
                if other == seat:
                    continue
                leaked = [c for c in game.hand(other) if c not in public and _mentions(text, c)]
                assert not leaked, f"seat {seat} sees seat {other}'s {leaked}:\n{text}"
            if seat != game.ruffer:
                assert "From the stock" not in text and "Laid out" not in text
            assert ("Your turn" in text) == (game.to_act() == seat)
        table = render.table_text(info, game.observe(0))
        for seat in range(4):
            leaked = [c for c in game.hand(seat) if c not in public and _mentions(table, c)]
            assert not leaked, f"the table shows seat {seat}'s {leaked}"
        if game.ruffer is not None:
            for c in game.observe(game.ruffer).my_discards:
                assert c in public or not _mentions(table, c)
        _step(game)
        states += 1
    assert states > 40
    final = render.final_text(info, game.observe(2))
    winner = game.match_winner
    assert f"{render.SIDE_NAMES[winner]}** — {NAMES[winner]} & {NAMES[winner + 2]} — win" in final


def test_hand_message_on_turn_names_what_to_do() -> None:
    game, _ = new_game(seed=4)
    info = _info(game)
    seat = game.to_act()
    assert game.phase == "ruff"
    text = render.hand_message(info, game.observe(seat))
    first = text.splitlines()[0]
    assert (
        first.startswith("🟢 **Your turn:**") and "Take the four stock cards" in first
    )  # line 1: what to do
    place = next(line for line in text.splitlines() if "table #7" in line)
    assert "[table #7](https://discord.com/channels/1/2/3)" in place  # the link says where
    assert (
        f"You are **{render.SEAT_NAMES[seat]}**, partner {render.SEAT_NAMES[(seat + 2) % 4]}"
        in text
    )
    while not (game.phase == "play" and len(game.trick) >= 2 and game.to_act() is not None):
        _step(game)
    seat = game.to_act()
    view = game.observe(seat)
    text = render.hand_message(info, view)
    led = view.led_suit
    first = text.splitlines()[0]
    if any(c.suit is led for c in view.hand):
        assert first == f"🟢 **Your turn — follow {suit_symbol(led)}**."
    else:
        assert first == f"🟢 **Your turn — no {suit_symbol(led)} left: play any card**."
    # the trick by seat (a phone's line each name would take), the card now winning marked
    best = view.rank_order.trick_winner([c for _, c in view.trick], view.trump)
    by_name = [f"{render.SEAT_NAMES[s]} {card_text(c)}" for s, c in view.trick]
    by_name[best] = f"**{by_name[best]}** ← winning"
    assert f"Trick {view.trick_no}: " + " · ".join(by_name) in text
    # the seats waiting see whom the game waits for on line 1
    other = (seat + 1) % 4
    waiting = render.hand_message(info, game.observe(other)).splitlines()[0]
    assert waiting.startswith("⏳ Not your turn — waiting for **") and "Your turn" not in waiting
    assert "Last trick" not in text  # mid-trick: only the trick in play (Last trick on the table)
    assert "Tricks: NS " in text  # on a turn to play, in the small context line


def test_event_lines_and_deal_summary_are_public() -> None:
    game, events = new_game(seed=table_seed(113), overrides={"target_score": "3"})
    info = _info(game)
    lines: list[str] = []
    summaries: list[str] = []
    while not game.is_over:
        seat = game.to_act()
        assert seat is not None
        evs = []
        for action in choose(game.observe(seat)):
            evs.extend(game.apply(seat, action))
        lines.extend(render.event_lines(info, evs))
        summary = render.deal_summary(info, evs)
        if summary:
            summaries.append(summary)
    assert any("ruffs" in line for line in lines)
    assert any("Can-ye" in line for line in lines)
    assert summaries[0].startswith("🃏 Table #7 · **Deal 1 of game 1** — tricks NS ")
    assert "win game 1 by Can-ye" in summaries[-1]


def test_rules_text_lists_the_rules() -> None:
    text = render.rules_text(make_rules("ruff-honours-cotton", "cotton1674", {"target_score": "3"}))
    assert text.startswith("📜 Ruff and Honours — preset `cotton1674`")
    assert "• Game is 3." in text


def test_solo_propose_and_accept_sides_on_the_table_and_in_each_dm() -> None:
    from engine.phases.solo_auction import solo_bid

    game, _ = new_game(rules=make_rules("solo-whist"), seed=21)
    for call in ("prop", "accept", "pass", "pass"):
        seat = game.to_act()
        assert seat is not None
        game.apply(seat, solo_bid(call))
    names = ("alice", "bob", "carol", "dave")
    info = TableInfo(1, game.rules, tuple(SeatInfo(n, 100 + i) for i, n in enumerate(names)))
    view = game.observe(0)
    proposer, acceptor = view.auction[0][0], view.auction[1][0]
    seats = render.SEAT_NAMES
    text = render.table_text(info, view)
    assert (
        f"Contract: **Propose** · proposed by {seats[proposer]} ({names[proposer]}), "
        f"accepted by {seats[acceptor]} ({names[acceptor]}) · needs 8 of 13 tricks together"
    ) in text
    defenders = [s for s in range(4) if s not in (proposer, acceptor)]
    for seat in range(4):
        seat_view = game.observe(seat)
        dm = render.hand_message(info, seat_view, in_buttons=seat_view.my_turn)
        if seat in (proposer, acceptor):
            mate = acceptor if seat == proposer else proposer
            if seat_view.my_turn:  # a turn to play: the sides in a few words, by seat
                assert f"you play with {seats[mate]}" in dm, dm
            else:
                assert f"you play Propose with {seats[mate]} ({names[mate]}) against" in dm
        else:
            mate = next(s for s in defenders if s != seat)
            if seat_view.my_turn:
                assert f"you defend with {seats[mate]}" in dm, dm
            else:
                assert f"you defend with {seats[mate]} ({names[mate]}) against" in dm
