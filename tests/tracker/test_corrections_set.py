"""The corrections set's scripts (bench.record, ``--set corrections``) as certain readings:
the rules side alone writes every attempt taken back and every chain stopped then answered
(issue #33). The rendered set is the bench's; these seeds are not its seeds."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from bench.record import corrections_script, corrections_written, feed_readings


@pytest.mark.parametrize("seed", [3, 7, 8])
def test_every_attempt_and_every_stopped_chain_of_a_script_is_written_right(seed: int) -> None:
    script = corrections_script(seed, plies=10)
    record = feed_readings(script)
    assert script.game is not None and record.game.positions() == script.game.positions()
    written = corrections_written([asdict(e) for e in script.events], script.game, record)
    assert written["corrections"] and all(written["corrections"])
    assert written["stop_and_reply"] and all(written["stop_and_reply"])
    assert written["extra"] == []
