from bench.record import corrections_script, feed_readings, corrections_written
from dataclasses import asdict
for seed in range(60100, 60300):
    s = corrections_script(seed, 16)
    r = feed_readings(s)
    w = corrections_written([asdict(e) for e in s.events], s.game, r)
    if r.game.positions() != s.game.positions() or not all(w["stop_and_reply"]):
        print(seed, w)
        print(" truth:", [(str(p.move), p.irregularity) for p in s.game.plies])
        print(" rec:  ", [(str(p.move), p.irregularity) for p in r.game.plies])
