"""The operator's view of a running bot: logs, error reports, health and metrics.

- :mod:`.logs` one JSON object per log line (``LOG_FORMAT=json``) and the error webhook
  (``ERROR_WEBHOOK_URL``), rate limited;
- :mod:`.metrics` the Prometheus metrics the bot keeps, and the HTTP port
  (``METRICS_PORT``) serving ``/metrics`` and ``/healthz``.

Nothing here knows the game: the bot hands it callables that say what is true now.
"""

from .logs import ErrorWebhook, JsonFormatter, RateLimit
from .metrics import METRICS, Health, HealthCheck, Metrics, OpsServer, discord_trace

__all__ = [
    "METRICS",
    "ErrorWebhook",
    "Health",
    "HealthCheck",
    "JsonFormatter",
    "Metrics",
    "OpsServer",
    "RateLimit",
    "discord_trace",
]
