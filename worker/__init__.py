"""One camera's worker for a tournament hall: source -> session -> outbox -> the hall's log.

The worker owns what a hall adds to the recorder: resuming a killed worker's game from
the log, telling spectators when its camera is lost, and holding events while the log
(Redis) is away.
"""
