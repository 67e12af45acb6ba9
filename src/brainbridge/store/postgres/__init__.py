"""The PostgreSQL backend: the store's SQL on a psycopg connection (`conn.py`)."""
