"""Headers every response carries: no MIME sniffing, and a Content-Security-Policy on pages.

The pages load only their own scripts, styles and images and talk only to their own
server (the SSE streams, the referee's actions), so the policy allows ``'self'`` and
nothing inline: a name or a reason that slipped past escaping still could not run.
Public pages may be framed by any site (the embed is made for that); the referee's pages
never are (``access.private``).
"""

from __future__ import annotations

from flask import Response

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}
PUBLIC_FRAMING = "*"  # embeds and overlays go into other sites' pages and OBS
PRIVATE_FRAMING = "'none'"


def content_security_policy(framing: str, inline: dict[str, str] | None = None) -> str:
    """The policy; ``inline`` adds sources (the hashes of a page's own inline style or
    script, :func:`server.report.inline_sources`) to a directive."""
    policy = {**POLICY, "frame-ancestors": framing}
    for name, sources in (inline or {}).items():
        policy[name] = f"{policy[name]} {sources}"
    return "; ".join(f"{name} {value}" for name, value in policy.items())


def secure(response: Response) -> Response:
    """``after_request`` of the app: nosniff everywhere, the policy on every HTML page."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy",
                                    content_security_policy(PUBLIC_FRAMING))
    return response
