"""The Discord front: what players see and press in Discord, over the table layer.

It turns the table layer's decisions (``bot.tables.act``'s outcomes) into the
interactions' answers, and shows every table's moves as a listener of the feed
(``bot.tables.feed``): the table message, the hand DMs, the turn notices. The
table layer asks it for what happens between moves through ``bot.tables.front``.
"""
