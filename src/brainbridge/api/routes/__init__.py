"""The HTTP API's routes, one router per resource; `api/app.py` includes them."""
