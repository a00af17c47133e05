# pressed.py R C K SEED [torus] -> the R x C board (plus rule) that random presses make from all 0:
# solvable by construction, so a board of large nullity has an answer to search for
import random, sys
r, c, k, seed = map(int, sys.argv[1:5]); torus = len(sys.argv) > 5
rng = random.Random(seed)
x = [[rng.randrange(k) for _ in range(c)] for _ in range(r)]
b = [[0]*c for _ in range(r)]
for i in range(r):
    for j in range(c):
        cells = {(i, j)}
        for di, dj in ((1,0),(-1,0),(0,1),(0,-1)):
            a, e = i+di, j+dj
            if torus: cells.add((a % r, e % c))
            elif 0 <= a < r and 0 <= e < c: cells.add((a, e))
        for a, e in cells: b[a][e] = (b[a][e] + x[i][j]) % k
ch = (lambda v: 'bw'[v == 0]) if k == 2 else str
for row in b: print(''.join(ch(v) for v in row))
