"""Calibration: a camera's board profile, made once per camera with ``makhos calibrate``.

- :mod:`.intrinsics` — the lens from frames of the empty board (its inner corners);
- :mod:`.adaptation` — the piece set's colours and man/king bound from one start frame;
- :mod:`.calibrator` — frames in, profile out (what ``makhos calibrate`` runs);
- :mod:`.profile` — the JSON file and its checks (:class:`~.profile.ProfileError`);
- :mod:`.reader` — a vision BoardReader set up from a profile, and one photograph read with it;
- :mod:`.desk` — the calibration page's image work (the server never imports OpenCV).
"""
