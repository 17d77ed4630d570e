"""The event's matches by round and the standings, under the event's scoring."""

from __future__ import annotations

from makhos.engine.game import Outcome
from makhos.events import decisions as ra
from makhos.server.config import BoardInfo, Scoring
from makhos.server.standings import by_round, round_key

from server_sample import MOVES, T0, game_events

BOARDS = (BoardInfo("1", "Table 1"), BoardInfo("2", "Table 2"), BoardInfo("3"))


def decide(log, board: str, action: ra.RefereeAction, game: int = 1) -> None:
    log.append(action.to_event(board, game, T0 + 1000))


def play_match(log, board: str, first: str, second: str, round_: str, outcomes: list[Outcome]) -> None:
    """A match of len(outcomes) games, each a few moves then the referee's result."""
    decide(log, board, ra.SetPlayers(first, second, round_, 4))
    for number, outcome in enumerate(outcomes, start=1):
        if number > 1:
            decide(log, board, ra.NewGame({}), game=number)
        for event in game_events(board, MOVES[:4], game=number)[1:]:
            log.append(event)
        decide(log, board, ra.SetResult(outcome, "resignation"), game=number)


def hall_of_two_rounds(log) -> None:
    # Round 1: Somchai and Malee win a game each (each as dark); Anan and Dao draw.
    play_match(log, "1", "Somchai", "Malee", "1", [Outcome.DARK_WINS, Outcome.DARK_WINS])
    play_match(log, "2", "Anan", "Dao", "1", [Outcome.DRAW])
    # Round 2 is being played on board 3: Malee won game 1 as dark.
    play_match(log, "3", "Malee", "Anan", "2", [Outcome.DARK_WINS])
    decide(log, "3", ra.NewGame({}), game=2)
    for event in game_events("3", MOVES[:2], game=2)[1:]:
        log.append(event)


def test_standings_count_every_game_by_the_events_scoring(make_app, log):
    hall_of_two_rounds(log)
    body = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()
    table = {s["player"]: s for s in body["standings"]}
    # The first mover alternates: in game 2 of board 1 Malee is dark, so "dark wins" is hers.
    assert {k: table["Somchai"][k] for k in ("points", "played", "won", "drawn", "lost")} == \
        {"points": 2, "played": 2, "won": 1, "drawn": 0, "lost": 1}
    assert table["Malee"]["won"] == 2 and table["Malee"]["points"] == 4
    assert table["Anan"]["drawn"] == 1 and table["Anan"]["lost"] == 1 and table["Anan"]["points"] == 1
    assert table["Dao"]["points"] == 1
    assert [(s["player"], s["rank"]) for s in body["standings"]] == \
        [("Malee", 1), ("Somchai", 2), ("Anan", 3), ("Dao", 3)]
    assert body["scoring"] == {"win": 2, "draw": 1, "loss": 0}


def test_three_one_nought_scoring_from_the_hall_profile(make_app, log):
    hall_of_two_rounds(log)
    body = make_app(boards=BOARDS, scoring=Scoring(3, 1, 0)).test_client().get("/api/standings").get_json()
    table = {s["player"]: s["points"] for s in body["standings"]}
    assert table == {"Malee": 6, "Somchai": 3, "Anan": 1, "Dao": 1}


def test_matches_are_grouped_by_round_the_latest_first(make_app, log):
    hall_of_two_rounds(log)
    rounds = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()["rounds"]
    assert [r["round"] for r in rounds] == ["2", "1"]
    [playing] = rounds[0]["matches"]
    assert playing["board"] == "3" and playing["results"] == ["first", None]
    assert playing["score"] == {"first": 2, "second": 0} and not playing["finished"]
    somchai = next(m for m in rounds[1]["matches"] if m["first"] == "Somchai")
    assert somchai["results"] == ["first", "second"] and somchai["played"] == 2


def test_equal_points_and_wins_share_a_rank(make_app, log):
    play_match(log, "2", "Anan", "Dao", "1", [Outcome.DRAW])
    standings = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()["standings"]
    assert [(s["player"], s["rank"]) for s in standings] == [("Anan", 1), ("Dao", 1)]


def test_a_board_without_players_stands_nowhere(make_app, log):
    for event in game_events("1", MOVES[:3]):
        log.append(event)
    body = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()
    assert body["rounds"] == [] and body["standings"] == []


def test_rounds_sort_naturally():
    assert sorted(["10", "2", "Round 9", "Round 10", "1"], key=round_key) == \
        ["1", "2", "10", "Round 9", "Round 10"]
    assert [r for r, _ in by_round(["b", "", "a"], lambda x: x)] == ["b", "a", ""]


def test_the_standings_and_hall_pages_show_the_rounds(make_app, log):
    hall_of_two_rounds(log)
    client = make_app(boards=BOARDS).test_client()
    page = client.get("/standings").get_data(as_text=True)
    assert page.index("Round 2") < page.index("Round 1")
    assert "Points per game: win 2, draw 1, loss 0" in page
    thai = client.get("/standings?lang=th").get_data(as_text=True)
    assert "ตารางคะแนน" in thai and "กระดาน 3" in thai
    hall = client.get("/").get_data(as_text=True)
    assert hall.index('data-round="2"') < hall.index('data-round="1"')
    assert hall.index('data-board="3"') < hall.index('data-board="1"')  # round 2's board first


def test_a_board_that_hosts_a_match_each_round_keeps_every_round(make_app, log):
    """Round 1 on board 1, then round 2's pairing on the same board: the games of round 1
    stay with their players, and round 2 numbers its own games from 1."""
    play_match(log, "1", "Somchai", "Malee", "1", [Outcome.DARK_WINS, Outcome.DARK_WINS])
    decide(log, "1", ra.SetPlayers("Anan", "Dao", "2", 2), game=2)
    decide(log, "1", ra.NewGame({}), game=3)
    for event in game_events("1", MOVES[:4], game=3)[1:]:
        log.append(event)
    decide(log, "1", ra.SetResult(Outcome.LIGHT_WINS, "resignation"), game=3)
    client = make_app(boards=BOARDS).test_client()
    body = client.get("/api/standings").get_json()
    rounds = {r["round"]: r["matches"] for r in body["rounds"]}
    assert [(m["first"], m["second"], m["results"]) for m in rounds["1"]] == [
        ("Somchai", "Malee", ["first", "second"])]
    # Game 3 of the board is game 1 of round 2: Anan moves first (dark), so light is Dao's.
    assert [(m["first"], m["results"], m["score"]) for m in rounds["2"]] == [
        ("Anan", ["second"], {"first": 0, "second": 2})]
    assert {s["player"]: s["points"] for s in body["standings"]} == {
        "Somchai": 2, "Malee": 2, "Dao": 2, "Anan": 0}
    board = client.get("/api/board/1").get_json()
    assert board["match"]["first"] == "Anan" and board["game"]["players"] == {"dark": "Anan", "light": "Dao"}
    pdn = client.get("/api/board/1/game/1/pdn").get_data(as_text=True)
    assert '[Round "1"]' in pdn and '[White "Malee"]' in pdn  # game 1 keeps its round and players


def test_naming_the_same_pairing_again_corrects_the_match_in_place(make_app, log):
    play_match(log, "1", "Somchai", "Malee", "", [Outcome.DARK_WINS])
    decide(log, "1", ra.SetPlayers("Somchai", "Malee", "3", 4))  # the round, given late
    rounds = make_app(boards=BOARDS).test_client().get("/api/standings").get_json()["rounds"]
    assert [(r["round"], [m["results"] for m in r["matches"]]) for r in rounds] == [("3", [["first"]])]
