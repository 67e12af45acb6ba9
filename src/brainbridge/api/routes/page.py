"""The web page's three files (public: they hold no data)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from brainbridge.api.page import web_file

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def page() -> str:
    return web_file("index.html")


@router.get("/app.js")
async def script() -> Response:
    return Response(web_file("app.js"), media_type="text/javascript")


@router.get("/app.css")
async def style() -> Response:
    return Response(web_file("app.css"), media_type="text/css")
