import random, sys, time, logging
logging.basicConfig(level=logging.ERROR)
from engine import new_game
from engine.ai import get_player
game_id = sys.argv[1]
for ov in eval(sys.argv[2]):
    for level in ("easy", "normal", "hard"):
        p = get_player(level, budget=0.02, cap=0.2)
        g, _ = new_game(game_id, overrides=ov, seed=7)
        rng = random.Random(0); t=time.time(); n=0
        while not g.is_over and n < 400:
            s = g.to_act(); v = g.observe(s)
            a = p.choose(v, list(v.legal), rng)
            g.apply(s, a); n+=1
        print(level, ov, g.is_over, n, round(time.time()-t,2))
