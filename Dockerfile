# The web table's bundle (bot/web/static/app.js and its chunks/), built from web/ as `make web` does
FROM node:20-slim AS web
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web/tsconfig.json web/build.mjs ./
COPY web/src ./src
RUN npx tsc --noEmit && node build.mjs /out

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# DejaVu Sans for the table pictures (bot/present/drawing.py falls back to Pillow's own font without it)
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 bot \
    && mkdir -p /data \
    && chown bot:bot /data

WORKDIR /app
COPY pyproject.toml LICENSE ./
COPY engine ./engine
COPY bot ./bot
COPY --from=web /out/app.js ./bot/web/static/app.js
COPY --from=web /out/chunks ./bot/web/static/chunks
RUN pip install '.[ai]'

USER bot
ENV RH_DATABASE=/data/ruff.db
VOLUME /data

CMD ["python", "-m", "bot"]
