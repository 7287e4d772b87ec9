import random, time
from engine import new_game
from engine.claims import Claim, answering
from engine.ai.claims import claim_holds, certain_claim
for gid in ["ruff-honours-cotton","whist-short-classic","solo-whist","bid-whist","ruff-trump-willughby","turnover-bridge"]:
  for seed in range(6):
    g,_ = new_game(gid, seed=seed)
    rng = random.Random(seed)
    # play until 4 tricks left in play
    while not g.is_over:
        s = g.to_act()
        if g.phase == "play" and g.facts.tricks_per_deal - g.trick_no + 1 <= 4 and not g.trick:
            break
        g.apply(s, rng.choice(g.legal_actions(s)))
    if g.is_over or g.phase!="play": print(gid, seed, "no play"); continue
    s = g.to_act()
    opts = g.observe(s).claims
    c = [a for a in opts if isinstance(a, Claim)]
    if not c: print(gid, seed, "no claim options", g.deal_state); continue
    t0=time.perf_counter()
    cc = certain_claim(g.observe(s))
    g.apply(s, c[0])
    res = [(o, claim_holds(g.observe(o))) for o in answering(g)]
    print(gid, seed, c[0], "certain", cc, res, round(time.perf_counter()-t0,3))
