"""Every message the server sends: the refusals (``{"type": "refused", "code", "message"}``) and the rest.

A refusal's code is from a fixed list; its message names what is wrong in one line.
"""

from __future__ import annotations

from fastapi.responses import JSONResponse


def refusal(code: str, message: str, status: int = 400, retry: int | None = None) -> JSONResponse:
    """A refused request: ``{"type": "refused", "code", "message"}`` (and ``retry``: seconds to wait, with
    ``Retry-After``, when trying again by itself is the right thing for a page to do)."""
    if retry is None:
        return JSONResponse({"type": "refused", "code": code, "message": message}, status_code=status)
    body = {"type": "refused", "code": code, "message": message, "retry": retry}
    return JSONResponse(body, status_code=status, headers={"Retry-After": str(retry)})
