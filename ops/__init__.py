"""Operations: /metrics (the Prometheus scrape, with the gauges read from the database) and the
Celery task metrics. On top of the apps: its collectors read games and matchmaking."""
