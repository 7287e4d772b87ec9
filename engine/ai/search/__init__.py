"""The search machinery the levels share: sampled worlds, playouts, exact solvers, budgets.

Nothing here knows a level or decides what to play; the strategies
(:mod:`engine.ai.strategies`) call it with the numbers of a level's profile.

* :mod:`~engine.ai.search.bitmasks`: a hand as one int bitmask, the trick
  winner, and the fast greedy playout policy of a four-handed deal;
* :mod:`~engine.ai.search.batch_playouts`: the same playouts, many deals at
  once with NumPy;
* :mod:`~engine.ai.search.worlds`: what one seat of a four-handed deal knows,
  and deals of the unseen cards consistent with it (sampled or enumerated);
* :mod:`~engine.ai.search.value`: what a deal's tricks are worth to a side;
* :mod:`~engine.ai.search.determinized`: the card with the best mean value
  over sampled worlds, each scored by playouts or an exact solver;
* :mod:`~engine.ai.search.solver` (pure Python) and :mod:`~engine.ai.search.dds`
  (Bo Haglund's DDS through ``endplay``): exact double-dummy values;
* :mod:`~engine.ai.search.open_search`: the same ideas for the open tables (two
  or three seats, everyone alone, face-up layouts), with its own card model;
* :mod:`~engine.ai.search.open_inference`: weighing those worlds by how well
  they explain the others' plays;
* :mod:`~engine.ai.search.budget` and :mod:`~engine.ai.search.clock`: how long
  a search may run, and the clock it is measured by.
"""
