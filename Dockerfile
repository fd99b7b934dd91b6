# One image for web, worker and beat; docker-compose.yml picks the command.
# The runtime lock only: no test, lint or benchmark tool, no embedded PostgreSQL or Redis
# (DATABASE_URL and REDIS_URL are always set here); tests/, bench/ and devtools/ stay out
# (.dockerignore).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

WORKDIR /app
COPY requirements.lock pyproject.toml ./
RUN pip install -r requirements.lock

COPY . .
RUN useradd --system --uid 1000 --home /app yaniv \
    && mkdir -p /app/var && chown -R yaniv /app/var \
    && DATABASE_URL=postgres://build@localhost/build REDIS_URL=redis://localhost/0 \
       SECRET_KEY=build-only sh -c 'python manage.py i18n compile && python manage.py collectstatic --noinput'
USER yaniv

EXPOSE 8000
# `exec`: uvicorn is the container's PID 1 and gets its SIGTERM, which drains it (core/drain.py).
CMD ["sh", "-c", "exec uvicorn config.asgi:application --host 0.0.0.0 --port ${PORT:-8000} --loop uvloop --http httptools --ws wsproto --ws-per-message-deflate false --no-proxy-headers --no-access-log"]
