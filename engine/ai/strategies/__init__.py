"""What the AI does, per kind of table or decision; each level sizes the searches.

* :mod:`~engine.ai.strategies.obvious`: decisions every level makes the same
  way (a single legal action, showing honours, taking the ruff, the true ruff);
* :mod:`~engine.ai.strategies.partnership`: card play at a four-handed
  partnership table with a hidden deal (the maxims, or determinized search);
* :mod:`~engine.ai.strategies.open_tables`: card play at 2-3 seats, everyone
  alone, or face-up layouts (the maxims, or sampled-worlds search);
* :mod:`~engine.ai.strategies.discards`: the ruff's discards and the rub's
  lay-out;
* :mod:`~engine.ai.strategies.solo_whist`: a contract game's auction, trumps
  and play (Solo Whist: misère, pushing, whist by the sides);
* :mod:`~engine.ai.strategies.bid_whist`: every decision of Bid Whist, over
  its own card model (jokers, a chosen rank order);
* :mod:`~engine.ai.strategies.claims`: answering claims and concessions, and
  claiming when certain.
"""
