# pressed-hypercube.py D K SEED -> a board of the D-cube graph that random presses make from all 0
import random, sys
d, k, seed = map(int, sys.argv[1:4]); n = 1 << d
rng = random.Random(seed); x = [rng.randrange(k) for _ in range(n)]
b = [0]*n
for v in range(n):
    for u in [v] + [v ^ (1 << i) for i in range(d)]: b[u] = (b[u] + x[v]) % k
print(''.join(('bw'[v == 0] if k == 2 else str(v)) for v in b))
