"""Page text in English and Thai. Templates and scripts read the same table.

The language comes from ``?lang=`` (the toggle) or the ``lang`` cookie the toggle sets.
"""

from __future__ import annotations

from flask import abort, request

LANGUAGES = ("en", "th")

TEXT: dict[str, tuple[str, str]] = {
    # key: (English, Thai)
    "app": ("Mak-hos live", "หมากฮอส สด"),
    "makhos": ("Mak-hos", "หมากฮอส"),
    "hall": ("Hall", "ห้องแข่งขัน"),
    "board": ("Board", "กระดาน"),
    "game": ("Game", "เกม"),
    "of": ("of", "จาก"),
    "round": ("Round", "รอบ"),
    "moves": ("Moves", "การเดิน"),
    "move": ("Move", "ตา"),
    "plies": ("plies", "ตา"),
    "dark": ("Dark", "ฝ่ายดำ"),
    "light": ("Light", "ฝ่ายขาว"),
    "man": ("man", "เบี้ย"),
    "king": ("king", "ฮอส"),
    "to_move": ("to move", "เดิน"),
    "clock": ("Move clock", "เวลาต่อตา"),
    "extra": ("extra", "เวลาเพิ่ม"),
    "alerts": ("Alerts", "การแจ้งเตือน"),
    "no_alerts": ("No open alerts", "ไม่มีการแจ้งเตือน"),
    "result": ("Result", "ผลการแข่งขัน"),
    "in_play": ("In play", "กำลังแข่ง"),
    "dark wins": ("Dark wins", "ฝ่ายดำชนะ"),
    "light wins": ("Light wins", "ฝ่ายขาวชนะ"),
    "draw": ("Draw", "เสมอ"),
    "match": ("Match", "แมตช์"),
    "standings": ("Standings", "ตารางคะแนน"),
    "matches": ("Matches", "คู่แข่งขัน"),
    "player": ("Player", "ผู้เล่น"),
    "points": ("Pts", "คะแนน"),
    "played": ("Games", "เกม"),
    "won": ("W", "ชนะ"),
    "drawn": ("D", "เสมอ"),
    "lost": ("L", "แพ้"),
    "scoring": ("Points per game: win {win}, draw {draw}, loss {loss}",
                "คะแนนต่อเกม: ชนะ {win} เสมอ {draw} แพ้ {loss}"),
    "no_matches": ("No matches yet: the referee names each board's players.",
                   "ยังไม่มีคู่แข่งขัน กรรมการจะกำหนดผู้เล่นของแต่ละกระดาน"),
    "no_round": ("No round given", "ไม่ระบุรอบ"),
    "playing": ("playing", "กำลังแข่ง"),
    "score": ("Score", "คะแนน"),
    "flip": ("Flip board", "กลับกระดาน"),
    "numbers": ("Square numbers", "เลขช่อง"),
    "language": ("ภาษาไทย", "English"),
    "start": ("Start", "เริ่ม"),
    "live": ("Live", "สด"),
    "finished": ("Finished", "จบเกม"),
    "camera_ended": ("Camera ended", "กล้องหยุดแล้ว"),
    "camera_ended_note": ("the recording is over: no more moves are recorded",
                          "การบันทึกจบแล้ว จะไม่มีการบันทึกการเดินเพิ่ม"),
    "awaits_board": ("Waiting for the board", "รอกล้องอ่านกระดาน"),
    "awaits_board_note": ("the game starts from the position the camera reads next",
                          "เกมจะเริ่มจากตำแหน่งที่กล้องอ่านได้ครั้งถัดไป"),
    "time_spent": ("time spent on this move", "เวลาที่ใช้ในตานี้"),
    "delay": ("Broadcast delay", "หน่วงเวลาถ่ายทอด"),
    "seconds": ("s", "วิ"),
    "download_pdn": ("PDN", "PDN"),
    "embed": ("Embed this board", "ฝังกระดานนี้ในเว็บไซต์"),
    "embed_help": ("Paste into a web page; add options to the address, e.g. ?theme=light&moves=0. "
                   "For OBS, add the overlay as a browser source (1920x1080).",
                   "วางโค้ดนี้ในหน้าเว็บ เพิ่มตัวเลือกต่อท้ายที่อยู่ เช่น ?theme=light&moves=0 "
                   "สำหรับ OBS ให้เพิ่มโอเวอร์เลย์เป็น browser source (1920x1080)"),
    "overlay": ("OBS overlay", "โอเวอร์เลย์ OBS"),
    "option": ("Option", "ตัวเลือก"),
    "opt_size": ("board width in pixels, 160-1600 (default: as large as the frame allows)",
                 "ความกว้างกระดานเป็นพิกเซล 160-1600 (ค่าเริ่มต้น: ใหญ่เท่าที่กรอบให้)"),
    "opt_theme": ("colours: dark (default) or light", "สี: dark (ค่าเริ่มต้น) หรือ light"),
    "opt_flip": ("light at the bottom", "ฝ่ายขาวอยู่ด้านล่าง"),
    "opt_moves": ("hide the move list and buttons", "ซ่อนรายการเดินและปุ่ม"),
    "opt_numbers": ("square numbers on the board", "แสดงเลขช่องบนกระดาน"),
    "opt_ply": ("open at this ply (0 = the start) instead of following live",
                "เปิดที่ตานี้ (0 = เริ่มเกม) แทนการติดตามสด"),
    "opt_bg": ("no background, to key over video (embed and overlay)",
               "ไม่มีพื้นหลัง สำหรับซ้อนบนวิดีโอ (embed และ overlay)"),
    "no_boards": ("No boards yet", "ยังไม่มีกระดาน"),
    "irregular": ("irregular", "ผิดกติกา"),
    "irregularity": ("Irregular move", "เดินผิดกติกา"),
    "unconfirmed": ("unconfirmed: played while the board was hidden, in an order the camera could not tell",
                    "ยังไม่ยืนยัน: เดินขณะกระดานถูกบัง กล้องบอกลำดับการเดินไม่ได้"),
    "board_mismatch": ("Board does not match", "กระดานไม่ตรงกับเกม"),
    "notice": ("Notice", "แจ้งให้ทราบ"),
    "camera": ("Camera", "กล้อง"),
    "crowning": ("Crowning pending on", "รอซ้อนฮอสที่ช่อง"),
    "referee": ("Referee", "กรรมการ"),
    "acknowledge": ("Acknowledge", "รับทราบ"),
    "accept_move": ("Accept move", "ยอมรับการเดิน"),
    "choose_line": ("Line chosen", "เลือกลำดับการเดินแล้ว"),
    "dismiss": ("Dismiss", "ยกเลิก"),
    "correct_move": ("Correct move", "แก้การเดิน"),
    "take_back": ("Take back", "ถอนการเดิน"),
    "set_result": ("Set result", "ตัดสินผล"),
    "new_game": ("New game", "เริ่มเกมใหม่"),
    "new_game_from": ("New game from a position", "เริ่มเกมใหม่จากตำแหน่งที่กำหนด"),
    "board_turn": ("Side to move (from the board)", "ฝ่ายที่จะเดิน (จากกระดาน)"),
    "from_board": ("From the board", "จากกระดาน"),
    "from_fen": ("From the FEN", "จาก FEN"),
    "set_players": ("Players and round", "ผู้เล่นและรอบ"),
    "grant_extra_time": ("Extra time", "ให้เวลาเพิ่ม"),
    "first_player": ("First mover in game 1", "ผู้เดินก่อนในเกมแรก"),
    "second_player": ("Opponent", "คู่แข่ง"),
    "games": ("Games", "จำนวนเกม"),
    "reason": ("Reason", "เหตุผล"),
    "rules": ("Rules", "กติกา"),
    "first_mover": ("First mover", "ฝ่ายเดินก่อน"),
    "golden": ("Golden board no.", "กระดานทองที่"),
    "count_rule": ("Count rule (moves)", "กติกานับ (ตา)"),
    "setup": ("Set-up", "การตั้งหมาก"),
    "setup:standard": ("standard", "มาตรฐาน"),
    "setup:one-king": ("one king", "ฮอสหนึ่งตัว"),
    "setup:two-kings": ("two kings", "ฮอสสองตัว"),
    "setup:three-kings": ("three kings", "ฮอสสามตัว"),
    "setup:golden": ("golden board", "กระดานทอง"),
    "minutes": ("min", "นาที"),
    "no_such_game": ("No game {game} on this board: live game shown",
                     "กระดานนี้ไม่มีเกมที่ {game}: แสดงเกมที่กำลังแข่ง"),
    "men": ("Men per side", "จำนวนเบี้ยต่อฝ่าย"),
    "apply": ("Apply", "ตกลง"),
    "confirm": ("Click again to confirm", "กดอีกครั้งเพื่อยืนยัน"),
    "sound": ("Alert sound", "เสียงเตือน"),
    "camera_view": ("Camera view", "ภาพจากกล้อง"),
    "board_picture": ("The board when the last move was accepted", "กระดานเมื่อรับตาเดินล่าสุด"),
    "no_camera": ("No camera", "ไม่มีกล้อง"),
    "review_report": ("Review report", "รายงานตรวจทานเกม"),
    "vision": ("Vision", "การมองเห็น"),
    "vision_still": ("board still", "กระดานนิ่ง"),
    "vision_moving": ("moving", "มีการเคลื่อนไหว"),
    "vision_occluded": ("covered", "ถูกบัง"),
    "vision_no_board": ("no board found", "ไม่พบกระดาน"),
    "vision_found": ("found in", "พบใน"),
    "vision_shake": ("camera shake", "กล้องสั่น"),
    "vision_last_read": ("last read", "อ่านล่าสุด"),
    "vision_never_read": ("not read yet", "ยังไม่ได้อ่าน"),
    "vision_silent": ("no news from the camera for", "ไม่มีข้อมูลจากกล้องมา"),
    "calibration": ("Calibration", "การปรับตั้งกล้อง"),
    "calibration_help": ("Drag the four corners onto the corners of the playing area. Corner 1 "
                         "is square 1's corner; turn the numbering if it is elsewhere. The board "
                         "on the right shows what is read on each square.",
                         "ลากมุมทั้งสี่ไปที่มุมของพื้นที่เล่น มุม 1 คือมุมของช่อง 1 หากอยู่ผิดที่ให้หมุนการเรียงเลข "
                         "กระดานด้านขวาแสดงสิ่งที่อ่านได้ในแต่ละช่อง"),
    "turn_numbering": ("Turn numbering", "หมุนการเรียงเลข"),
    "reset": ("Reset", "คืนค่า"),
    "save_profile": ("Save profile", "บันทึกโปรไฟล์"),
    "saved": ("Saved", "บันทึกแล้ว"),
    "rectified_board": ("Rectified board and reading", "กระดานที่ปรับแล้วและผลการอ่าน"),
    "time_up": ("Time is up", "หมดเวลา"),
    "connection_lost": ("Reconnecting…", "กำลังเชื่อมต่อใหม่…"),
    # the commentators' analysis (on when the hall profile says "analysis")
    "analysis": ("Analysis", "การวิเคราะห์"),
    "analysing": ("analysing…", "กำลังวิเคราะห์…"),
    "analysis_unavailable": ("no analysis of this position", "ไม่มีการวิเคราะห์ตำแหน่งนี้"),
    "best_move": ("best", "ตาที่ดีที่สุด"),
    "depth": ("depth", "ความลึก"),
    "wins_in": ("{side} wins in {plies} plies", "{side}ชนะใน {plies} ตา"),
    "has_won": ("{side} has won", "{side}ชนะแล้ว"),
    "drawn_with_best_play": ("draw with best play", "เสมอเมื่อเล่นดีที่สุด"),
    "score_side": ("score from dark's side, in men", "คะแนนจากฝั่งฝ่ายดำ หน่วยเป็นเบี้ย"),
    "analysis_delay": ("analysis of the position shown, behind the broadcast delay",
                       "วิเคราะห์ตำแหน่งที่แสดง ตามหลังการหน่วงเวลาถ่ายทอด"),
    # reasons a game ends (engine.game.Result.reason and the referee's usual words)
    "reason:resignation": ("resignation", "ยอมแพ้"),
    "reason:no pieces left": ("no pieces left", "หมากหมดกระดาน"),
    "reason:no legal move": ("no legal move", "ไม่มีทางเดิน"),
    "reason:repetition": ("repetition", "เดินซ้ำ"),
    "reason:count rule": ("count rule", "ครบกำหนดนับ"),
    "reason:agreement": ("agreement", "ตกลงเสมอ"),
    "reason:forfeit": ("forfeit", "ปรับแพ้"),
    "reason:time": ("time", "หมดเวลา"),
    "reason:referee": ("referee", "กรรมการตัดสิน"),
}


def strings(lang: str) -> dict[str, str]:
    index = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    return {key: pair[index] for key, pair in TEXT.items()}


def page_language() -> tuple[str, dict[str, str]]:
    """The request's language and its strings: ``?lang=`` (any other value is a 400, as
    docs/pages.md promises), else the toggle's cookie (a stale one is ignored), else English."""
    if "lang" in request.args:
        lang = request.args["lang"]
        if lang not in LANGUAGES:
            abort(400, description=f"lang must be one of: {', '.join(LANGUAGES)}")
        return lang, strings(lang)
    lang = request.cookies.get("lang") or "en"
    lang = lang if lang in LANGUAGES else "en"
    return lang, strings(lang)
