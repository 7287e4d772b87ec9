import random
from engine import new_game
from engine.claims import Claim, answering
import engine.ai.claims as C
g,_ = new_game("ruff-honours-cotton", seed=0)
rng = random.Random(0)
while True:
    s = g.to_act()
    if g.phase == "play" and g.facts.tricks_per_deal - g.trick_no + 1 <= 4 and not g.trick: break
    g.apply(s, rng.choice(g.legal_actions(s)))
s=g.to_act(); g.apply(s, Claim(4))
v = g.observe(answering(g)[0])
note = C._claim_note(v); print(note[0], v.seat, v.hand_sizes, v.exposed)
from engine.cards import mask_of
w = C._worlds(v, note[0], mask_of(note[3])); print(None if w is None else len(w))
print(C._voids(v))
played = C._played(v); pool = C._pack(v) & ~played & ~mask_of(v.hand) & ~mask_of(note[3])
print(pool.bit_count(), bin(C._pack(v)).count("1"), v.rules.removed_ranks, v.rules.jokers)
