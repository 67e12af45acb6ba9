"""Errors as JSON: a BrainError maps to its status, validation errors read as a sentence."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from brainbridge.errors import BrainError, Forbidden, InvalidInput, NotFound, StoreBusy


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error as `{"error": ..., "kind": ...}` with a fitting status."""

    @app.exception_handler(BrainError)
    async def brain_error(_: Request, exc: BrainError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFound)
            else 400
            if isinstance(exc, InvalidInput)
            else 403
            if isinstance(exc, Forbidden)
            else 503
            if isinstance(exc, StoreBusy)
            else 500
        )
        return JSONResponse({"error": str(exc), "kind": type(exc).__name__}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        return JSONResponse(
            {"error": _describe(errors), "kind": "InvalidRequest", "detail": jsonable(errors)},
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(
            {"error": str(exc.detail), "detail": exc.detail},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )


def _describe(errors: Any) -> str:
    """One readable sentence for FastAPI's validation errors."""
    parts = []
    for err in list(errors)[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        msg = err.get("msg", "invalid")
        if err.get("type") == "json_invalid":
            msg = f"the body is not valid JSON ({(err.get('ctx') or {}).get('error', msg)})"
            parts.append(msg)
            continue
        if err.get("type") == "model_attributes_type":
            parts.append("the body must be a JSON object (send Content-Type: application/json)")
            continue
        parts.append(f"{where}: {msg}")
    return "invalid request: " + "; ".join(parts)


def jsonable(errors: Any) -> Any:
    """Validation errors as JSON, without echoing the (possibly megabytes of) input."""
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder([{k: v for k, v in e.items() if k != "input"} for e in errors])
